import type { EnvReader } from '@pf/service-kit'
import { PLATFORM_RETRY_HORIZON_SECONDS } from '../queue'

export const DAY = 24 * 60 * 60
export const HOUR = 60 * 60

/**
 * The shortest `WEBHOOK_MAX_AGE_SECONDS`: the platform's last retry comes 7 h 12 min 30 s after the event, with
 * the same signed `timestamp`; 5 minutes more for clock skew and the delivery itself.
 */
export const MIN_MAX_AGE_SECONDS = PLATFORM_RETRY_HORIZON_SECONDS + 5 * 60
/** The shortest `WEBHOOK_DEDUP_TTL_SECONDS`: its default maximum age (the TTL less one hour) must be allowed. */
export const MIN_DEDUP_TTL_SECONDS = MIN_MAX_AGE_SECONDS + HOUR

/**
 * How long a `webhookId` stays known: beyond the platform's whole retry horizon (see `readMaxAgeSeconds`). The
 * worker and the dead-letters command read it too: a session's ordering state lives as long.
 */
export function readDedupTtlSeconds(env: EnvReader): number {
  return env.int('WEBHOOK_DEDUP_TTL_SECONDS', { default: 7 * DAY, min: MIN_DEDUP_TTL_SECONDS })
}
