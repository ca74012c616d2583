/**
 * Thrown by a webhook handler for an event that no retry can fix: the job goes straight to the dead letters.
 * The worker recognises it by its `unrecoverable` flag, not by class identity, so a handler module that
 * resolves its own copy of this package is still understood.
 *
 * @example
 * if (!data.userId) throw new UnrecoverableWebhookError('purchase.failed without a user')
 */
export class UnrecoverableWebhookError extends Error {
  readonly unrecoverable = true
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'UnrecoverableWebhookError'
  }
}
