import type { DeliveryMechanism } from './constants'
import type { DeliverySpec } from './query-envelope'

/**
 * The mechanism to use: `pf_s3_sync` or `webhook` when named exactly, else `inline` (spec: "Null, absent or
 * any other value is treated as inline").
 *
 * @example
 * resolveDeliveryMechanism({ mechanism: 'S3' }) // 'inline'
 * resolveDeliveryMechanism({ mechanism: 5 }) // 'inline'
 */
export function resolveDeliveryMechanism(delivery: DeliverySpec | null | undefined): DeliveryMechanism {
  const mechanism = delivery?.mechanism
  return mechanism === 'pf_s3_sync' || mechanism === 'webhook' ? mechanism : 'inline'
}
