/** True for errors that should not be retried: @pf/schemas' `UnrecoverableWebhookError`, BullMQ's, or any error with `unrecoverable: true`. */
export function isUnrecoverable(error: unknown): boolean {
  const candidate = error as { unrecoverable?: unknown; name?: unknown } | null
  return candidate?.unrecoverable === true || candidate?.name === 'UnrecoverableError'
}
