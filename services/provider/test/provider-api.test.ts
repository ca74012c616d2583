import { GetObjectCommand } from '@aws-sdk/client-s3'
import { verifyCallback } from '@pf/signing'
import { createCleanup } from '@pf/testkit'
import type { S3ServerHandle } from '@pf/testkit/s3'
import { query, startProvider, startRecorder, startStore, type StartedProvider } from './support-http'

let store: S3ServerHandle
let provider: StartedProvider
let callbacks: Awaited<ReturnType<typeof startRecorder>>
let targets: Awaited<ReturnType<typeof startRecorder>>

const cleanup = createCleanup(afterAll)
const perTest = createCleanup(afterEach)
beforeAll(async () => {
  store = cleanup.add(await startStore(), (s) => s.stop())
  provider = cleanup.add(await startProvider(store), (p) => p.stop())
})
beforeEach(async () => {
  callbacks = perTest.add(await startRecorder(), (r) => r.close())
  targets = perTest.add(await startRecorder(), (r) => r.close())
})

const TOKEN = 'cb-token-1'
let counter = 0
const envelope = (extra: Record<string, unknown> = {}) => ({
  queryId: `q-${++counter}`,
  datasetId: 'ds-1',
  callbackUrl: `${callbacks.url}/callbacks`,
  callbackToken: TOKEN,
  parameters: { name: 'deutsche bahn' },
  ...extra,
})
const settle = () => new Promise((resolve) => setTimeout(resolve, 150))
const callbackBody = (i = 0) =>
  JSON.parse(callbacks.requests[i]?.body.toString() ?? 'null') as Record<string, unknown>

describe('authentication (spec, "Authentication" 1)', () => {
  it.each([
    ['missing', undefined],
    ['wrong', 'not-the-key'],
  ])('answers 401 application/json {error} for a %s X-PF-Api-Key', async (_case, key) => {
    const res = await fetch(`${provider.url}/api/search/companies`, {
      method: 'POST',
      body: JSON.stringify(envelope()),
      headers: { 'content-type': 'application/json', ...(key ? { 'x-pf-api-key': key } : {}) },
    })
    expect(res.status).toBe(401)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await res.json()).toEqual({ error: 'invalid or missing X-PF-Api-Key header' })
    await settle()
    expect(callbacks.requests).toHaveLength(0)
  })

  it('accepts every key of a rotation (PF_API_KEY=current,previous)', async () => {
    expect((await query(provider.url, 'companies', envelope(), 'previous-api-key')).status).toBe(200)
  })

  it('leaves /health open', async () => {
    const res = await fetch(`${provider.url}/health`)
    expect(res.status).toBe(200)
  })
})

describe('query processing, row 1: queryId or callbackUrl missing → 400 {error}, no callback', () => {
  it.each([
    ['no queryId', { queryId: undefined }],
    ['a null queryId', { queryId: null }],
    ['no callbackUrl', { callbackUrl: undefined }],
    ['a null callbackUrl', { callbackUrl: null }],
    ['a queryId that could leave its key prefix', { queryId: '../../etc/passwd' }],
  ])('answers 400 {error} for %s', async (_case, extra) => {
    const res = await query(provider.url, 'companies', envelope(extra))
    expect(res.status).toBe(400)
    expect(Object.keys(res.body)).toEqual(['error'])
    await settle()
    expect(callbacks.requests).toHaveLength(0)
  })

  it('answers 400 {error} for a body that is not JSON, and 413 {error} past the size limit', async () => {
    expect(await query(provider.url, 'companies', '{"queryId":')).toMatchObject({
      status: 400,
      body: { error: expect.any(String) },
    })
    const big = envelope({ parameters: { name: 'x'.repeat(70 * 1024) } })
    expect(await query(provider.url, 'companies', big)).toMatchObject({
      status: 413,
      body: { error: expect.any(String) },
    })
  })
})

describe('query processing, row 2: sanctions parameters.name missing or empty → 400 {error, queryId}, no callback', () => {
  it.each([
    ['no parameters', { parameters: undefined }],
    ['no name', { parameters: { country: 'CU' } }],
    ['an empty name', { parameters: { name: '' } }],
    ['a blank name', { parameters: { name: '  ' } }],
  ])('answers 400 {error, queryId} for %s', async (_case, extra) => {
    const sent = envelope(extra)
    const res = await query(provider.url, 'sanctions', sent)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: expect.stringMatching(/name/), queryId: sent.queryId })
    await settle()
    expect(callbacks.requests).toHaveLength(0)
  })
})

describe('query processing, row 3: delivered → callback, then 200', () => {
  it('inline: answers {queryId, recordCount, executionTimeMs, results} after a signed delivered callback', async () => {
    const sent = envelope()
    const res = await query(provider.url, 'companies', sent)
    // The callback is posted before the HTTP response is returned.
    expect(callbacks.requests).toHaveLength(1)
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['queryId', 'recordCount', 'executionTimeMs', 'results'])
    expect(res.body).toMatchObject({
      queryId: sent.queryId,
      recordCount: 1,
      results: [expect.objectContaining({ name: 'Deutsche Bahn AG', country: 'DE' })],
    })

    const [callback] = callbacks.requests
    expect(callback?.method).toBe('POST')
    expect(callback?.headers['content-type']).toBe('application/json')
    expect(verifyCallback(TOKEN, callback!.body, callback!.headers['x-pf-signature'] as string)).toBe(true)
    expect(callbackBody()).toEqual({
      queryId: sent.queryId,
      status: 'delivered',
      recordCount: 1,
      executionTimeMs: res.body.executionTimeMs,
      delivery: { mechanism: 'inline' },
    })
  })

  it('inline is also what an unknown or null mechanism means', async () => {
    for (const delivery of [{ mechanism: 'ftp' }, { mechanism: null }, null]) {
      const res = await query(provider.url, 'companies', envelope({ delivery }))
      expect(res.status).toBe(200)
      expect(res.body.results).toBeDefined()
    }
  })

  it('says when the limit cut the results: truncated, and for screening how many entries matched in all', async () => {
    const cut = await query(
      provider.url,
      'sanctions',
      envelope({ parameters: { name: 'Kim Jong Un', threshold: 80, limit: 2 } }),
    )
    expect(cut.status).toBe(200)
    expect(cut.body).toMatchObject({ recordCount: 2, truncated: true, totalMatches: expect.any(Number) })
    expect(cut.body.totalMatches).toBeGreaterThan(2)
    // The callback keeps the spec's recordCount: the records delivered.
    expect(callbackBody()).toMatchObject({ status: 'delivered', recordCount: 2 })
    const whole = await query(
      provider.url,
      'sanctions',
      envelope({ parameters: { name: 'Kim Jong Un', threshold: 80, limit: cut.body.totalMatches } }),
    )
    expect(whole.body.recordCount).toBe(cut.body.totalMatches)
    expect(whole.body).not.toHaveProperty('truncated')
  })

  it('sanctions: results carry score, matched name, type, programs and countries', async () => {
    const res = await query(
      provider.url,
      'sanctions',
      envelope({ parameters: { name: 'National Bank of Cuba', threshold: 95 } }),
    )
    expect(res.status).toBe(200)
    expect((res.body.results as unknown[])[0]).toMatchObject({
      id: '306',
      name: 'BANCO NACIONAL DE CUBA',
      matchedName: 'NATIONAL BANK OF CUBA',
      score: 100,
      type: 'entity',
      programs: ['CUBA'],
    })
    expect(callbackBody()).toMatchObject({ status: 'delivered', recordCount: res.body.recordCount })
  })

  it('pf_s3_sync: writes <s3KeyPrefix><queryId>.json as application/json to the default bucket when s3Bucket is empty', async () => {
    const sent = envelope({
      parameters: { country: 'England', limit: 25 },
      delivery: { mechanism: 'pf_s3_sync', s3Bucket: '', s3KeyPrefix: 'acme/daily/' },
    })
    const res = await query(provider.url, 'companies', sent)
    expect(res.status).toBe(200)
    const key = `acme/daily/${sent.queryId}.json`
    expect(res.body).toEqual({
      queryId: sent.queryId,
      recordCount: 25,
      executionTimeMs: expect.any(Number),
      // More than 25 English companies match: the answer says the limit cut them.
      truncated: true,
      delivery: { mechanism: 'pf_s3_sync', reference: `s3://pf-deliveries/${key}` },
    })
    const object = await provider.s3.send(new GetObjectCommand({ Bucket: 'pf-deliveries', Key: key }))
    expect(object.ContentType).toBe('application/json')
    const stored = JSON.parse(await object.Body!.transformToString()) as { country: string }[]
    expect(stored).toHaveLength(25)
    expect(stored.every((c) => c.country === 'GB')).toBe(true)
    expect(callbackBody()).toMatchObject({
      status: 'delivered',
      recordCount: 25,
      delivery: { mechanism: 'pf_s3_sync' },
    })
  })

  it('pf_s3_sync: uses the envelope bucket, and a null prefix is empty', async () => {
    const sent = envelope({
      delivery: { mechanism: 'pf_s3_sync', s3Bucket: 'their-bucket', s3KeyPrefix: null },
    })
    const res = await query(provider.url, 'companies', sent)
    expect(res.body.delivery).toEqual({
      mechanism: 'pf_s3_sync',
      reference: `s3://their-bucket/${sent.queryId}.json`,
    })
    const object = await provider.s3.send(
      new GetObjectCommand({ Bucket: 'their-bucket', Key: `${sent.queryId}.json` }),
    )
    expect(JSON.parse(await object.Body!.transformToString())).toEqual([
      expect.objectContaining({ name: 'Deutsche Bahn AG' }),
    ])
  })

  it('webhook: POSTs the results as JSON without a signature; the target status is recorded, not checked', async () => {
    targets.behaviour.status = 500
    const sent = envelope({ delivery: { mechanism: 'webhook', url: `${targets.url}/results` } })
    const res = await query(provider.url, 'companies', sent)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      queryId: sent.queryId,
      recordCount: 1,
      delivery: { mechanism: 'webhook', reference: '' },
    })
    const [delivery] = targets.requests
    expect(delivery?.url).toBe('/results')
    expect(delivery?.headers['content-type']).toBe('application/json')
    expect(delivery?.headers['x-pf-signature']).toBeUndefined()
    expect(JSON.parse(delivery!.body.toString())).toEqual([
      expect.objectContaining({ name: 'Deutsche Bahn AG' }),
    ])
    expect(callbackBody()).toMatchObject({ status: 'delivered', delivery: { mechanism: 'webhook' } })
  })
})

describe('query processing, row 4: an exception in search or delivery → failed callback and 500 {error, queryId}', () => {
  it('a missing bucket fails the delivery', async () => {
    const sent = envelope({ delivery: { mechanism: 'pf_s3_sync', s3Bucket: 'no-such-bucket' } })
    const res = await query(provider.url, 'companies', sent)
    expect(res.status).toBe(500)
    // The store's own error text (bucket names, addresses) stays in the log: the answer is generic.
    expect(res.body).toEqual({ error: 'delivery failed', queryId: sent.queryId })
    const callback = callbacks.requests[0]
    expect(verifyCallback(TOKEN, callback!.body, callback!.headers['x-pf-signature'] as string)).toBe(true)
    expect(callbackBody()).toEqual({
      queryId: sent.queryId,
      status: 'failed',
      recordCount: 0,
      executionTimeMs: expect.any(Number),
      error: res.body.error,
    })
  })

  it('a webhook delivery without a url fails', async () => {
    const res = await query(provider.url, 'companies', envelope({ delivery: { mechanism: 'webhook' } }))
    expect(res.status).toBe(500)
    expect(res.body.error).toBe('delivery failed: delivery.url is required for webhook delivery')
    expect(callbackBody()).toMatchObject({ status: 'failed', recordCount: 0 })
  })

  it('an unreachable webhook target fails the delivery', async () => {
    await targets.close()
    const res = await query(
      provider.url,
      'companies',
      envelope({ delivery: { mechanism: 'webhook', url: `${targets.url}/x` } }),
    )
    expect(res.status).toBe(500)
    expect(callbackBody()).toMatchObject({ status: 'failed' })
  })
})

describe('the callback never changes the search answer (spec, "Status callback")', () => {
  it('answers 200 when the callback target is down', async () => {
    await callbacks.close()
    expect((await query(provider.url, 'companies', envelope())).status).toBe(200)
  })

  it('answers 200 within the outbound time-out when the callback target hangs', async () => {
    const slow = await startProvider(store, { timeoutMs: 300 })
    try {
      callbacks.behaviour.hang = true
      const res = await query(slow.url, 'companies', envelope())
      expect(res.status).toBe(200)
      expect(callbacks.requests).toHaveLength(1)
    } finally {
      await slow.close()
      slow.s3.destroy()
    }
  })

  it('sends the callback unsigned when the envelope has no callbackToken', async () => {
    const res = await query(provider.url, 'companies', envelope({ callbackToken: undefined }))
    expect(res.status).toBe(200)
    expect(callbacks.requests[0]?.headers['x-pf-signature']).toBeUndefined()
  })
})

describe('outbound safety: no callbacks or deliveries to private addresses unless OUTBOUND_ALLOW_PRIVATE', () => {
  let strict: StartedProvider
  const strictCleanup = createCleanup(afterAll)
  beforeAll(async () => {
    strict = strictCleanup.add(await startProvider(store, { allowPrivate: false }), (p) => p.stop())
  })

  it.each([
    'http://127.0.0.1:9/cb',
    'http://169.254.169.254/latest/meta-data',
    'http://10.1.2.3/cb',
    'http://[::1]/cb',
    'http://[::ffff:127.0.0.1]/cb',
    'ftp://example.com/cb',
    'file:///etc/passwd',
  ])('refuses callbackUrl %s with 400 {error}', async (callbackUrl) => {
    const res = await query(strict.url, 'companies', envelope({ callbackUrl }))
    expect(res.status).toBe(400)
    expect(Object.keys(res.body)).toEqual(['error'])
  })

  it('refuses at connect time a host name that resolves to a private address (no request reaches it)', async () => {
    const res = await query(
      strict.url,
      'companies',
      envelope({ callbackUrl: `http://localhost:${callbacks.port}/cb` }),
    )
    expect(res.status).toBe(200)
    await settle()
    expect(callbacks.requests).toHaveLength(0)
  })

  it('fails a webhook delivery to a private address', async () => {
    const res = await query(
      strict.url,
      'companies',
      envelope({
        callbackUrl: `http://localhost:${callbacks.port}/cb`,
        delivery: { mechanism: 'webhook', url: `http://127.0.0.1:${targets.port}/x` },
      }),
    )
    expect(res.status).toBe(500)
    expect(res.body.error).toBe('delivery failed: delivery.url points at a non-public address')
    expect(targets.requests).toHaveLength(0)
  })
})

describe('ops', () => {
  it('/ready answers when the default bucket does; /metrics counts queries by outcome', async () => {
    await query(provider.url, 'companies', envelope())
    expect((await fetch(`${provider.url}/ready`)).status).toBe(200)
    const metrics = await (await fetch(`${provider.url}/metrics`)).text()
    expect(metrics).toMatch(
      /pf_provider_queries_total\{endpoint="companies",mechanism="inline",status="delivered"\} \d+/,
    )
    expect(metrics).toMatch(/pf_provider_callbacks_total\{outcome="sent"\} \d+/)
  })
})
