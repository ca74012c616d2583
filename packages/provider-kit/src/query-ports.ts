import type { CallbackPayload, DeliveryResult, QueryEnvelope } from '@pf/schemas'

/** A delivery mechanism that leaves the process (inline needs none). */
export type OutboundMechanism = Exclude<DeliveryResult['mechanism'], 'inline'>

/**
 * What the query flow needs from the outside world. The real one (`adapters/create-query-ports.ts`) speaks
 * S3 and HTTP; tests may pass plain functions.
 */
export interface QueryPorts {
  /**
   * Delivers the records by `mechanism`, reading them as it sends (they may be more than memory holds);
   * rejects when they could not be delivered, having aborted what it started. `signal` ends the delivery
   * (`delivery.timeoutMs`).
   */
  deliver(
    mechanism: OutboundMechanism,
    envelope: QueryEnvelope,
    records: AsyncIterable<unknown> | Iterable<unknown>,
    signal: AbortSignal,
  ): Promise<DeliveryResult>
  /** Posts the signed status callback; may reject (the flow logs it and answers as it would have). */
  sendCallback(envelope: QueryEnvelope, payload: CallbackPayload): Promise<void>
}
