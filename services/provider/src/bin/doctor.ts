// `node dist/doctor.js`: checks the provider's configuration without serving; exit 1 on any failure.
import { HeadBucketCommand } from '@aws-sdk/client-s3'
import {
  createLogger,
  DoctorProblem,
  productionSecretsCheck,
  runDoctor,
  type DoctorCheck,
} from '@pf/service-kit'
import { createS3Client } from '../adapters/create-s3-client'
import { loadProviderConfig, type ProviderConfig } from '../config'
import { SanctionsLists } from '../lists/sanctions-lists'

const checks = (config: ProviderConfig): DoctorCheck[] => [
  productionSecretsCheck(loadProviderConfig, process.env),
  {
    name: `S3 bucket ${config.s3.defaultBucket}`,
    run: async () => {
      const s3 = createS3Client({ ...config.s3, timeoutMs: 4000 })
      try {
        await s3.send(new HeadBucketCommand({ Bucket: config.s3.defaultBucket }))
        return `exists at ${config.s3.endpoint ?? 'AWS'}`
      } catch (error) {
        throw new DoctorProblem(
          `${(error as Error).name}: ${(error as Error).message || 'no such bucket, or no access'}`,
          'create the bucket, or set S3_DEFAULT_BUCKET, S3_ENDPOINT and the credentials',
        )
      } finally {
        s3.destroy()
      }
    },
  },
  ...(config.sanctions.sources ?? []).map((source) => ({
    name: `list source ${source.replace(/\/\/[^@/]*@/, '//…@')}`,
    run: async () => {
      const lists = await SanctionsLists.load([source], {
        timeoutMs: config.sanctions.loadTimeoutMs,
        maxBytes: config.sanctions.maxBytes,
        logger: createLogger({ name: 'doctor', level: 'silent' }),
      })
      return `loads: ${lists
        .current()
        .versions.map((list) => list.name)
        .join(', ')}`
    },
  })),
]

void runDoctor(() => loadProviderConfig(process.env), checks, { timeoutMs: 60_000 }).then((ok) =>
  process.exit(ok ? 0 : 1),
)
