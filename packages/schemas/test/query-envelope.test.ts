import { validateQueryEnvelope } from '@pf/schemas'

const base = { queryId: 'q-1', callbackUrl: 'https://platform.example/callbacks/q-1' }

describe('validateQueryEnvelope (spec: queryId or callbackUrl null → rejected with {error})', () => {
  it('accepts the two required fields alone: parameters, delivery and callbackToken may be absent', () => {
    expect(validateQueryEnvelope(base)).toEqual({ ok: true, value: base })
  })

  it('lets unknown fields flow through', () => {
    const result = validateQueryEnvelope({ ...base, traceId: 't', delivery: { mechanism: 'x', extra: 1 } })
    expect(result.ok).toBe(true)
  })

  it('accepts null for every optional field', () => {
    const nulls = { datasetId: null, endpoint: null, parameters: null, delivery: null, callbackToken: null }
    expect(validateQueryEnvelope({ ...base, ...nulls }).ok).toBe(true)
    const delivery = { mechanism: null, url: null, s3Bucket: null, s3KeyPrefix: null }
    expect(validateQueryEnvelope({ ...base, delivery }).ok).toBe(true)
  })

  it.each([
    [{ callbackUrl: base.callbackUrl }, 'queryId is required'],
    [{ ...base, queryId: null }, 'queryId is required'],
    [{ ...base, queryId: '' }, 'queryId must not be empty'],
    [{ queryId: 'q-1' }, 'callbackUrl is required'],
    [{ ...base, callbackUrl: null }, 'callbackUrl is required'],
    [{ ...base, callbackUrl: 'not a url' }, 'callbackUrl must match format "uri"'],
    [{ ...base, delivery: { url: 42 } }, 'delivery.url must be string or null'],
    [{ ...base, parameters: 'name=x' }, 'parameters must be object or null'],
    [{}, 'queryId is required; callbackUrl is required'],
    [null, 'body is required'],
    [[], 'body must be object'],
  ])('rejects %j with "%s"', (body, error) => {
    expect(validateQueryEnvelope(body)).toEqual({ ok: false, error })
  })
})
