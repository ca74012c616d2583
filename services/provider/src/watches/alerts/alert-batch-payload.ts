/** One alert as a receiver gets it (service contract: the alert POST). */
export interface DeliveredAlert {
  alertId: string
  subjectId: string
  kind: 'new' | 'changed' | 'removed'
  hit: unknown
}

/** The body POSTed to a watch's `alertUrl`. */
export interface AlertBatchPayload {
  watchId: string
  batchId: string
  /** Per watch, from 1, without gaps: batch N+1 is sent only once N was acknowledged. */
  sequence: number
  /** When this attempt was made (ISO 8601): a retried batch has the same `batchId` and a later `sentAt`. */
  sentAt: string
  alerts: DeliveredAlert[]
}

/** The exact bytes that are signed and sent (UTF-8 JSON), so the signature is over what goes on the wire. */
export function serializeAlertBatch(payload: AlertBatchPayload): Buffer {
  return Buffer.from(JSON.stringify(payload), 'utf8')
}
