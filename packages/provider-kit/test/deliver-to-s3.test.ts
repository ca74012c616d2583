import { GetObjectCommand } from '@aws-sdk/client-s3'
import { createCleanup } from '@pf/testkit'
import { startS3Server, type S3ServerHandle } from '@pf/testkit/s3'
import { createS3Client } from '../src/create-s3-client'
import { deliverToS3 } from '../src/deliver-to-s3'

let store: S3ServerHandle
let s3: ReturnType<typeof createS3Client>
const cleanup = createCleanup(afterAll)
beforeAll(async () => {
  store = cleanup.add(await startS3Server({ buckets: ['pf-deliveries'] }), (s) => s.stop())
  s3 = cleanup.add(
    createS3Client({ endpoint: store.endpoint, region: 'us-east-1', credentials: store.credentials }),
    (client) => client.destroy(),
  )
})

describe('deliverToS3', () => {
  it('streams a result larger than one part (5 MiB) as a multipart upload, read back whole', async () => {
    const results = Array.from({ length: 40_000 }, (_, i) => ({
      id: `C${i}`,
      name: `Company ${i}`,
      note: 'x'.repeat(150),
    }))
    const delivered = await deliverToS3(s3, { s3KeyPrefix: 'big/' }, 'q-big', 'pf-deliveries', results)
    expect(delivered).toEqual({
      mechanism: 'pf_s3_sync',
      reference: 's3://pf-deliveries/big/q-big.json',
      statusCode: null,
    })
    const object = await s3.send(new GetObjectCommand({ Bucket: 'pf-deliveries', Key: 'big/q-big.json' }))
    const body = await object.Body!.transformToString()
    expect(body.length).toBeGreaterThan(5 * 1024 * 1024)
    expect(JSON.parse(body)).toEqual(results)
  })

  it('writes an empty result as []', async () => {
    await deliverToS3(s3, null, 'q-empty', 'pf-deliveries', [])
    const object = await s3.send(new GetObjectCommand({ Bucket: 'pf-deliveries', Key: 'q-empty.json' }))
    expect(await object.Body!.transformToString()).toBe('[]')
  })

  it('aborts the upload when the records fail midway (a store error, DELIVERY_TIMEOUT_MS): no object is left', async () => {
    const controller = new AbortController()
    async function* records() {
      for (let i = 0; i < 60_000; i += 1) {
        // Past the first 5 MiB part: the multipart upload has begun.
        if (i === 45_000) controller.abort(new Error('DELIVERY_TIMEOUT_MS'))
        yield { id: `C${i}`, note: 'x'.repeat(150) }
      }
    }
    await expect(
      deliverToS3(s3, null, 'q-cut', 'pf-deliveries', records(), controller.signal),
    ).rejects.toThrow()
    await expect(
      s3.send(new GetObjectCommand({ Bucket: 'pf-deliveries', Key: 'q-cut.json' })),
    ).rejects.toMatchObject({ name: 'NoSuchKey' })
  })
})
