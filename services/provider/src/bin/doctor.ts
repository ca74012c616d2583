// `node dist/doctor.js`: checks the provider's configuration without serving; exit 1 on any failure.
// The AWS SDK's notice that its 2027 releases need Node 22 is not a finding of this configuration.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
import { providerChecks } from '@pf/provider-kit'
import { createLogger, redactUrl, runDoctorCommand, type DoctorCheck } from '@pf/service-kit'
import { loadProviderConfig, type ProviderConfig } from '../config'
import { listLoadOptions } from '../lists/load-configured-lists'
import { SanctionsLists } from '../lists/sanctions-lists'

const checks = (config: ProviderConfig): DoctorCheck[] => [
  ...providerChecks({
    s3: config.s3,
    s3Settings: 'S3_DEFAULT_BUCKET, S3_ENDPOINT and the credentials',
  }).map((check) => ({ ...check, needs: ['S3_*', 'AWS_*'] })),
  ...(config.sanctions.sources ?? []).map((source) => ({
    name: `list source ${redactUrl(source)}`,
    needs: ['SANCTIONS_*'],
    run: async () => {
      // The start's own limits: a source the provider would refuse (past SANCTIONS_MAX_BYTES, empty without
      // allow-empty:) fails here too.
      const logger = createLogger({ name: 'doctor', level: 'silent' })
      const lists = await SanctionsLists.load([source], listLoadOptions(config.sanctions, logger))
      return `loads: ${lists
        .current()
        .versions.map((list) => list.name)
        .join(', ')}`
    },
  })),
]

runDoctorCommand(loadProviderConfig, checks, {
  service: 'provider',
  checks: 'the S3 bucket exists, each list source (SANCTIONS_SOURCES) loads',
  argv: process.argv.slice(2),
  env: process.env,
  timeoutMs: 60_000,
})
