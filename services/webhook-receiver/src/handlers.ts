// The public surface for application owners who write handlers: types and two helpers.
import type { WebhookEvent, WebhookEventKind } from '@pf/schemas'

export type { WebhookEvent, WebhookEventKind } from '@pf/schemas'

/** What a handler gets besides the event. */
export interface HandlerContext {
  /** The BullMQ job id (not the webhookId, which is `event.webhookId`). */
  jobId: string
  /** 1 on the first try. */
  attempt: number
  maxAttempts: number
  /** A pino logger bound to the event kind and webhookId. */
  logger: {
    info(obj: object, msg?: string): void
    warn(obj: object, msg?: string): void
    error(obj: object, msg?: string): void
  }
}

/** A handler for one kind; a thrown error means retry (unless it is unrecoverable). */
export type WebhookHandler<K extends WebhookEventKind> = (
  event: WebhookEvent<K>,
  context: HandlerContext,
) => Promise<void>

/** The module contract of WEBHOOK_HANDLERS: `export const handlers = { 'session.created': async (event) => … }`. */
export type WebhookHandlers = { [K in WebhookEventKind]?: WebhookHandler<K> }

/**
 * Types a handlers object, so each handler sees its own kind's data.
 *
 * @example
 * export const handlers = defineHandlers({
 *   'purchase.failed': async (event) => notify(event.data.userId, event.data.required),
 * })
 */
export function defineHandlers(handlers: WebhookHandlers): WebhookHandlers {
  return handlers
}

/** Marks an error as not worth retrying: the job goes straight to the dead letters. */
export class UnrecoverableWebhookError extends Error {
  readonly unrecoverable = true
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'UnrecoverableWebhookError'
  }
}

/** True for errors that should not be retried: ours, BullMQ's, or any error with `unrecoverable: true`. */
export function isUnrecoverable(error: unknown): boolean {
  const candidate = error as { unrecoverable?: unknown; name?: unknown } | null
  return candidate?.unrecoverable === true || candidate?.name === 'UnrecoverableError'
}
