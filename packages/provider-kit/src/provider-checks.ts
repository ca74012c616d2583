import { HeadBucketCommand } from '@aws-sdk/client-s3'
import { DoctorProblem, redactUrl } from '@pf/service-kit'
import { createS3Client } from './create-s3-client'

/** One check a provider's doctor runs: resolves with what it found, or throws an error with a `fix`. */
export interface ProviderCheck {
  name: string
  run(): Promise<string>
}

export interface ProviderCheckOptions {
  s3: {
    defaultBucket: string
    endpoint?: string
    region?: string
    credentials?: { accessKeyId: string; secretAccessKey: string }
  }
  /** What the fix of a failed bucket check tells the operator to set (default: the option names). */
  s3Settings?: string
}

/**
 * What the kit checks of a configuration without serving: the default bucket exists and answers (with the
 * credentials given, or the AWS SDK's chain). A provider adds its own (a store, a list source) beside them.
 */
export function providerChecks({
  s3,
  s3Settings = 's3.defaultBucket, s3.endpoint and the credentials',
}: ProviderCheckOptions): ProviderCheck[] {
  return [
    {
      name: `S3 bucket ${s3.defaultBucket}`,
      run: async () => {
        const client = createS3Client({ ...s3, region: s3.region ?? 'us-east-1', timeoutMs: 4000 })
        try {
          await client.send(new HeadBucketCommand({ Bucket: s3.defaultBucket }))
          return `exists at ${s3.endpoint ? redactUrl(s3.endpoint) : 'AWS'}`
        } catch (error) {
          throw new DoctorProblem(
            `${(error as Error).name}: ${(error as Error).message || 'no such bucket, or no access'}`,
            `create the bucket, or set ${s3Settings}`,
          )
        } finally {
          client.destroy()
        }
      },
    },
  ]
}
