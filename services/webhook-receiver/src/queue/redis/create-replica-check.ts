import type { Logger } from '@pf/service-kit'

export interface ReplicaCheckOptions {
  /** `REDIS_WAIT_REPLICAS`: replicas that must confirm each write. */
  wanted: number
  /** How many are online now. */
  count: () => Promise<number>
  logger?: Logger
  /** Where Redis is, for the log (never a password). */
  where: string
}

/**
 * A check that rejects while the primary has fewer replicas online than `REDIS_WAIT_REPLICAS` asks for: then
 * no write can be confirmed, and every webhook, although stored, is answered 503 (the platform's retry gets a
 * duplicate's 200). Run at start and by `/ready`, it says so in one clear line when it begins, naming the setting
 * and the two ways out, and in one more when it ends; never once per webhook.
 */
export function createReplicaCheck({ wanted, count, logger, where }: ReplicaCheckOptions) {
  let short = false
  return async (): Promise<void> => {
    const online = await count()
    if (online < wanted) {
      if (!short)
        logger?.error(
          { setting: 'REDIS_WAIT_REPLICAS', wanted, online, redis: where },
          `REDIS_WAIT_REPLICAS=${wanted} but the Redis primary holding the queue has ${online} replica(s) online: ` +
            'no write can be confirmed, so every webhook is stored yet answered 503. Add replicas to that primary, ' +
            'or set REDIS_WAIT_REPLICAS=0 to acknowledge on the primary alone',
        )
      short = true
      throw new Error(
        `the Redis primary has ${online} of the ${wanted} replicas REDIS_WAIT_REPLICAS asks for`,
      )
    }
    if (short)
      logger?.info(
        { setting: 'REDIS_WAIT_REPLICAS', wanted, online, redis: where },
        'Redis replicas are back',
      )
    short = false
  }
}
