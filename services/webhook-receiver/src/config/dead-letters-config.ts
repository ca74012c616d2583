import { createEnvReader, type Env } from '@pf/service-kit'
import { readDedupTtlSeconds } from './read-dedup-ttl-seconds'
import { readJobSettings, type JobConfig } from './read-job-settings'
import { readQueueSettings, type QueueConfig } from './read-queue-settings'

export interface DeadLettersConfig extends QueueConfig, JobConfig {
  /** How long the command waits for Redis before it gives up. */
  timeoutMs: number
  /** How long a replayed quarantined event's mark in its session's ordering state is kept. */
  dedupTtlSeconds: number
}

/**
 * Redis, the queue prefix and a time-out: what the dead-letters command (`dist/dead-letters.js`) needs; and
 * the receiver's job settings, which a quarantined event handed on by `replay` gets like any other.
 */
export function loadDeadLettersConfig(source: Env): DeadLettersConfig {
  const env = createEnvReader(source)
  const config = {
    ...readQueueSettings(env),
    ...readJobSettings(env),
    timeoutMs: env.int('DEAD_LETTERS_TIMEOUT_MS', { default: 3000, min: 100 }),
    dedupTtlSeconds: readDedupTtlSeconds(env),
  }
  return env.done(config)
}
