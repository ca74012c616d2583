// `node dist/doctor.js`: checks the receiver's (and worker's) configuration without serving; exit 1 on any failure.
import { DoctorProblem, runDoctorCommand, type DoctorCheck } from '@pf/service-kit'
import { loadReceiverConfig, type ReceiverConfig } from '../config'
import { describeRedisTarget, layoutMismatch, readEvictionPolicy, readQueueLayout } from '../queue'

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
    name: `queue layout QUEUE_SHARDS=${config.shards}`,
    needs: ['REDIS_*', 'WEBHOOK_QUEUE_PREFIX', 'QUEUE_SHARDS', 'QUEUE_RESHARD_FROM'],
    run: async () => {
      // Read only: a start records the layout, the doctor must not (it may run against another deployment's Redis).
      const layout = await readQueueLayout(config.redis, config.queuePrefix, 4000)
      if (!layout) return `none recorded yet: the first start records ${config.shards} shard(s)`
      // QUEUE_RESHARD_FROM naming the recorded number: what the claim accepts, turning the record into a resharding.
      if (!layout.resharding && config.reshardFrom === layout.shards && config.shards !== layout.shards)
        return `Redis records ${layout.shards} shard(s); the first start with these settings begins the resharding to ${config.shards}`
      const mismatch = layoutMismatch(layout, { ...config, prefix: config.queuePrefix })
      if (mismatch) throw new DoctorProblem(mismatch.problem, mismatch.fix)
      return `Redis records ${layout.shards} shard(s)${layout.resharding ? `, resharding from ${layout.resharding.from} until ${new Date(layout.resharding.until).toISOString()}` : ''}`
    },
  },
]

runDoctorCommand(loadReceiverConfig, checks, {
  service: 'webhook-receiver',
  checks:
    'Redis answers with maxmemory-policy noeviction; the QUEUE_SHARDS recorded in Redis is the configured one',
  argv: process.argv.slice(2),
  env: process.env,
})
