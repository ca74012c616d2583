/** How alerts are delivered (`WATCH_ALERT_*` settings; see the README's Watches section). */
export interface AlertDeliverySettings {
  /** Most alerts in one batch (`WATCH_ALERT_BATCH_SIZE`). */
  batchSize: number
  /** Batches sent at once by one replica, each holding a database connection while it is sent. */
  concurrency: number
  /** How often an idle deliverer looks for new alerts and due retries (`WATCH_ALERT_POLL_MS`). */
  pollMs: number
  retry: AlertRetryPolicy
}

/** Exponential backoff with jitter, up to a horizon after which a batch is `failed`. */
export interface AlertRetryPolicy {
  /** The first retry's delay, doubled at each further failure (`WATCH_ALERT_RETRY_BASE_MS`). */
  baseMs: number
  /** The longest delay between two attempts (`WATCH_ALERT_RETRY_MAX_DELAY_MS`). */
  maxDelayMs: number
  /** How long after it was formed (or re-queued) a batch is retried (`WATCH_ALERT_RETRY_HORIZON_SECONDS`). */
  horizonMs: number
}

export const DEFAULT_ALERT_DELIVERY: AlertDeliverySettings = {
  batchSize: 100,
  concurrency: 4,
  pollMs: 1000,
  retry: { baseMs: 1000, maxDelayMs: 600_000, horizonMs: 24 * 3_600_000 },
}
