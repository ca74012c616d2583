import {
  deliveryObjectKey,
  resolveDeliveryMechanism,
  resolveS3Target,
  serializeCallbackPayload,
  validateCallbackPayload,
  validateDeliveryResult,
} from '@pf/schemas'
import { specVectors } from './spec-vectors'

describe('resolveDeliveryMechanism (spec: null, absent or any other value is treated as inline)', () => {
  it.each([
    [undefined, 'inline'],
    [null, 'inline'],
    [{}, 'inline'],
    [{ mechanism: null }, 'inline'],
    [{ mechanism: 'inline' }, 'inline'],
    [{ mechanism: 'PF_S3_SYNC' }, 'inline'],
    [{ mechanism: 's3' }, 'inline'],
    [{ mechanism: 'pf_s3_sync' }, 'pf_s3_sync'],
    [{ mechanism: 'webhook' }, 'webhook'],
  ])('%j → %s', (delivery, mechanism) => {
    expect(resolveDeliveryMechanism(delivery)).toBe(mechanism)
  })
})

describe('object key and bucket (spec: key <s3KeyPrefix><queryId>.json; null prefix is empty; default bucket)', () => {
  it('builds the key from the prefix and the queryId', () => {
    expect(deliveryObjectKey('acme/daily/', 'q-1')).toBe('acme/daily/q-1.json')
    expect(deliveryObjectKey(null, 'q-1')).toBe('q-1.json')
    expect(deliveryObjectKey(undefined, 'q-1')).toBe('q-1.json')
  })

  it.each([
    [{ s3Bucket: 'theirs' }, 'theirs'],
    [{ s3Bucket: '' }, 'pf-deliveries'],
    [{ s3Bucket: null }, 'pf-deliveries'],
    [{}, 'pf-deliveries'],
    [null, 'pf-deliveries'],
  ])('bucket of %j is %s', (delivery, bucket) => {
    expect(resolveS3Target(delivery, 'q-9', 'pf-deliveries')).toEqual({
      bucket,
      key: 'q-9.json',
      reference: `s3://${bucket}/q-9.json`,
    })
  })
})

describe('serializeCallbackPayload (spec: fields with a null value are omitted)', () => {
  const vectors = specVectors.callback

  it('reproduces the test vectors byte for byte, in field order', () => {
    expect(
      serializeCallbackPayload({
        queryId: 'q-1001',
        status: 'delivered',
        recordCount: 3,
        executionTimeMs: 12,
        delivery: { mechanism: 'inline' },
        error: null,
      }),
    ).toBe(vectors[0]?.body)
    expect(
      serializeCallbackPayload({
        queryId: 'q-1002',
        status: 'failed',
        recordCount: 0,
        executionTimeMs: 40,
        delivery: null,
        error: 'bucket not found',
      }),
    ).toBe(vectors[1]?.body)
  })

  it.each(vectors)('the vector body $body is a valid callback payload', ({ body }) => {
    expect(validateCallbackPayload(JSON.parse(body)).ok).toBe(true)
  })
})

describe('validateDeliveryResult', () => {
  it('accepts each mechanism shape of the spec', () => {
    expect(validateDeliveryResult({ mechanism: 'inline', reference: null, statusCode: null }).ok).toBe(true)
    expect(
      validateDeliveryResult({ mechanism: 'pf_s3_sync', reference: 's3://b/k.json', statusCode: null }).ok,
    ).toBe(true)
    expect(validateDeliveryResult({ mechanism: 'webhook', reference: null, statusCode: 503 }).ok).toBe(true)
  })

  it('rejects an unknown mechanism', () => {
    expect(validateDeliveryResult({ mechanism: 'ftp', reference: null, statusCode: null }).ok).toBe(false)
  })
})
