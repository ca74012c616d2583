// `node dist/doctor.js`: checks the receiver's (and worker's) configuration without serving; exit 1 on any failure.
import { DoctorProblem, runDoctorCommand, type DoctorCheck } from '@pf/service-kit'
import { loadReceiverConfig, type ReceiverConfig } from '../config'
import {
  describeRedisTarget,
  QueueLayoutError,
  readEvictionPolicy,
  readQueueLayout,
  refuseOtherLayout,
} from '../queue'

const checks = (config: ReceiverConfig): DoctorCheck[] => [
  {
    name: `Redis at ${describeRedisTarget(config.redis)}`,
    needs: ['REDIS_*', 'WEBHOOK_QUEUE_PREFIX'],
    run: async () => {
      const policy = await readEvictionPolicy(config.redis).catch((error: Error) => {
        throw new DoctorProblem(
          error.message,
          'start Redis, or set REDIS_URL (REDIS_SENTINELS, REDIS_CLUSTER_NODES) to where it runs',
        )
      })
      if (policy !== undefined && policy !== 'noeviction')
        throw new DoctorProblem(
          `maxmemory-policy is ${policy}: queued webhooks and dedup markers may be evicted`,
          'set maxmemory-policy noeviction',
        )
      return `answers; maxmemory-policy ${policy ?? 'not reported'}`
    },
  },
  {
    name: 'queue layout (QUEUE_SHARDS)',
    needs: ['REDIS_*', 'WEBHOOK_QUEUE_PREFIX', 'QUEUE_SHARDS', 'QUEUE_RESHARD_FROM'],
    run: async () => {
      const { shards, reshardFrom } = config
      const layout = await readQueueLayout(config.redis, config.queuePrefix).catch((error: Error) => {
        throw new DoctorProblem(`not read: ${error.message}`, 'see the Redis check')
      })
      if (!layout) return `none recorded yet: the first start records QUEUE_SHARDS=${shards}`
      // What a start would do: begin the resharding it is given (README, "Changing the number of shards").
      if (!layout.resharding && reshardFrom === layout.shards && shards !== layout.shards)
        return `Redis records ${layout.shards} shard(s); a start begins resharding to ${shards}`
      try {
        refuseOtherLayout(layout, { prefix: config.queuePrefix, shards, reshardFrom })
      } catch (error) {
        if (!(error instanceof QueueLayoutError)) throw error
        const [problem, fix] = splitAdvice(error.message)
        throw new DoctorProblem(problem, fix)
      }
      const running = layout.resharding
        ? `, resharding from ${layout.resharding.from} until ${new Date(layout.resharding.until).toISOString()}`
        : ''
      return `Redis records ${layout.shards} shard(s), as configured${running}`
    },
  },
]

/** A layout refusal's last sentence ("Start with …") is its fix. */
function splitAdvice(message: string): [string, string] {
  const at = message.lastIndexOf(' Start with ')
  return at < 0
    ? [message, 'see README, "Changing the number of shards"']
    : [message.slice(0, at), message.slice(at + 1)]
}

runDoctorCommand(loadReceiverConfig, checks, {
  service: 'webhook-receiver',
  checks: 'Redis answers with maxmemory-policy noeviction and records the configured QUEUE_SHARDS',
  argv: process.argv.slice(2),
  env: process.env,
})
