// `node dist/doctor.js`: checks the receiver's (and worker's) configuration without serving; exit 1 on any failure.
import { DoctorProblem, productionSecretsCheck, runDoctor, type DoctorCheck } from '@pf/service-kit'
import { loadReceiverConfig, type ReceiverConfig } from '../config'
import { describeRedisTarget, readEvictionPolicy } from '../queue'

const checks = (config: ReceiverConfig): DoctorCheck[] => [
  productionSecretsCheck(loadReceiverConfig, process.env),
  {
    name: `Redis at ${describeRedisTarget(config.redis)}`,
    run: async () => {
      const policy = await readEvictionPolicy(config.redis)
      if (policy !== undefined && policy !== 'noeviction')
        throw new DoctorProblem(
          `maxmemory-policy is ${policy}: queued webhooks and dedup markers may be evicted`,
          'set maxmemory-policy noeviction',
        )
      return `answers; maxmemory-policy ${policy ?? 'not reported'}`
    },
  },
]

void runDoctor(() => loadReceiverConfig(process.env), checks).then((ok) => process.exit(ok ? 0 : 1))
