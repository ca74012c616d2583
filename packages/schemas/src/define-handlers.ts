// The contract of the webhook worker's WEBHOOK_HANDLERS module, published here so that application owners
// type their handlers against the same event types the receiver validates with.
import type { WebhookEventKind } from './constants'
import type { WebhookEvent } from './webhook-envelope'

/** What a handler gets besides the event. */
export interface HandlerContext {
  /** The queue's job id (not the webhookId, which is `event.webhookId`). */
  jobId: string
  /** 1 on the first try. */
  attempt: number
  maxAttempts: number
  /** A structured logger bound to the event kind and webhookId. */
  logger: {
    info(obj: object, msg?: string): void
    warn(obj: object, msg?: string): void
    error(obj: object, msg?: string): void
  }
  /**
   * Runs `effect` once per idempotency `key` (e.g. `purchase:${data.purchaseId}`) across every delivery,
   * retry and worker; resolves true when it ran now, false when it had already run. A throwing effect is
   * retried with the job; a worker killed mid-effect leaves it to the job's next attempt.
   *
   * @example
   * await once(`purchase:${event.data.purchaseId}`, () => grantItem(event.data.userId, event.data.itemId))
   */
  once(key: string, effect: () => Promise<void>): Promise<boolean>
  /**
   * With `WEBHOOK_ORDERING=session`: `false` when this event is the newest of its session handed on so far;
   * else `{ newestTimestamp }`, the signed `timestamp` (ISO 8601 UTC) of a newer event of its session already
   * handed on, so that a handler can ignore what the newer one replaced (a stale `session.extended`). A dead
   * letter replayed is always late. Always `false` with ordering off.
   *
   * @example
   * if (context.late && event.event === 'session.extended') return // a newer extension or the end came first
   */
  late: false | { newestTimestamp: string }
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
