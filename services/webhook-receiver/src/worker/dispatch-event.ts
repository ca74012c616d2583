import {
  UnrecoverableWebhookError,
  validateWebhookEvent,
  type HandlerContext,
  type WebhookHandler,
  type WebhookHandlers,
} from '@pf/schemas'

export type DispatchOutcome = 'handled' | 'no-handler'

/**
 * Validates a stored event against @pf/schemas and runs the handler of its kind. An invalid event can never
 * become valid by retrying, so it is unrecoverable; a handler's own error propagates (retry).
 */
export async function dispatchEvent(
  payload: unknown,
  handlers: WebhookHandlers,
  context: HandlerContext,
): Promise<DispatchOutcome> {
  const checked = validateWebhookEvent(payload)
  if (!checked.ok) throw new UnrecoverableWebhookError(`invalid event: ${checked.error}`)
  const event = checked.value
  const handler = handlers[event.event] as WebhookHandler<typeof event.event> | undefined
  if (!handler) return 'no-handler'
  await handler(event, context)
  return 'handled'
}
