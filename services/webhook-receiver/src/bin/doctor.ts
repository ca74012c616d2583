// `node dist/doctor.js`: checks the receiver's (and worker's) configuration without serving; exit 1 on any failure.
import { DoctorProblem, runDoctorCommand, type DoctorCheck } from '@pf/service-kit'
import { loadReceiverConfig, type ReceiverConfig } from '../config'
import { describeRedisTarget, readEvictionPolicy } from '../queue'

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
]

runDoctorCommand(loadReceiverConfig, checks, {
  service: 'webhook-receiver',
  checks: 'Redis answers with maxmemory-policy noeviction',
  argv: process.argv.slice(2),
  env: process.env,
})
