import { Queue } from 'bullmq'
import { createRedisConnection } from '../redis/create-redis-connection'
import { defaultJobOptions, type JobSettings } from '../default-job-options'
import { WEBHOOK_QUEUE_NAME } from '../queue-names'
import type { WebhookQueue } from '../webhook-queue'
import type { RedisTarget } from '../redis/redis-target'

/**
 * The webhook queue for a command-line tool (the dead letters): one try per command and a short connect
 * time-out, errors left to the caller's own time-out; a job handed back gets the receiver's job settings.
 */
export function openDeadLetterQueue({
  redis,
  queuePrefix,
  ...jobs
}: JobSettings & { redis: RedisTarget; queuePrefix: string }): { queue: WebhookQueue; close(): void } {
  const connection = createRedisConnection(redis, 'worker', { maxRetriesPerRequest: 1, connectTimeout: 2000 })
  connection.on('error', () => {}) // the caller's time-out says what went wrong, once
  const queue = new Queue(WEBHOOK_QUEUE_NAME, {
    connection,
    prefix: queuePrefix,
    defaultJobOptions: defaultJobOptions(jobs),
  })
  queue.on('error', () => {})
  return { queue, close: () => connection.disconnect() }
}
