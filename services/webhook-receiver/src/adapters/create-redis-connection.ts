import { Redis, type RedisOptions } from 'ioredis'

/**
 * Redis options for the producer side: commands fail at once while disconnected (no offline queue), so the
 * receiver answers 503 quickly instead of holding the platform's request past its 5 s budget; it keeps
 * reconnecting in the background, so a Redis restart heals by itself. Given to BullMQ as options rather than
 * as a client, so that BullMQ owns the connection: closing a queue whose shared connection is still being set
 * up leaves an unhandled 'error' behind in BullMQ 5.
 */
export function producerConnectionOptions(
  url: string,
  options: RedisOptions = {},
): RedisOptions & { url: string } {
  return {
    url,
    // Commands issued in the same tick (many concurrent webhooks) go out in one write: batched enqueues
    // without a batching layer of our own.
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    ...options,
  }
}

/** A connection for BullMQ workers: blocking commands need `maxRetriesPerRequest: null`. */
export function createWorkerConnection(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: null,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    ...options,
  })
}
