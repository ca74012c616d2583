import { createCleanup } from '@pf/testkit'
import { createResponseValidator } from '@pf/testkit/openapi'
import type { S3ServerHandle } from '@pf/testkit/s3'
import { startProvider, startRecorder, startStore, type StartedProvider } from './support-http'

let store: S3ServerHandle
let provider: StartedProvider
let callbacks: Awaited<ReturnType<typeof startRecorder>>
let conforms: ReturnType<typeof createResponseValidator>

const cleanup = createCleanup(afterAll)
beforeAll(async () => {
  store = cleanup.add(await startStore(), (s) => s.stop())
  provider = cleanup.add(await startProvider(store), (p) => p.stop())
  callbacks = cleanup.add(await startRecorder(), (r) => r.close())
  conforms = createResponseValidator(
    (await (await fetch(`${provider.url}/openapi.json`)).json()) as Record<string, unknown>,
  )
})

const envelope = (extra: Record<string, unknown> = {}) => ({
  queryId: `q-${Math.random().toString(36).slice(2)}`,
  callbackUrl: `${callbacks.url}/cb`,
  callbackToken: 't',
  parameters: { name: 'deutsche bahn' },
  ...extra,
})

describe('GET /openapi.json: every route answers as documented (OpenAPI 3.1)', () => {
  const cases: [string, 'companies' | 'sanctions', () => object, string, number][] = [
    ['companies 200 inline', 'companies', () => envelope(), 'test-api-key', 200],
    [
      'companies 200 pf_s3_sync',
      'companies',
      () => envelope({ delivery: { mechanism: 'pf_s3_sync' } }),
      'test-api-key',
      200,
    ],
    [
      'sanctions 200 inline',
      'sanctions',
      () => envelope({ parameters: { name: 'National Bank of Cuba' } }),
      'test-api-key',
      200,
    ],
    ['400 invalid envelope', 'companies', () => ({ callbackUrl: 'x' }), 'test-api-key', 400],
    ['400 invalid parameters', 'sanctions', () => envelope({ parameters: {} }), 'test-api-key', 400],
    ['401 wrong key', 'companies', () => envelope(), 'wrong', 401],
    [
      '413 too large',
      'companies',
      () => envelope({ parameters: { name: 'x'.repeat(70 * 1024) } }),
      'test-api-key',
      413,
    ],
    [
      '500 delivery failed',
      'companies',
      () => envelope({ delivery: { mechanism: 'pf_s3_sync', s3Bucket: 'missing' } }),
      'test-api-key',
      500,
    ],
  ]

  it.each(cases)('%s', async (_name, endpoint, body, key, status) => {
    const res = await fetch(`${provider.url}/api/search/${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-pf-api-key': key },
      body: JSON.stringify(body()),
    })
    expect(res.status).toBe(status)
    expect(conforms('post', `/api/search/${endpoint}`, status, await res.json())).toEqual([])
  })

  it('documents GET /api/lists, the extra route, as it answers (200 and 401)', async () => {
    const ok = await fetch(`${provider.url}/api/lists`, { headers: { 'x-pf-api-key': 'test-api-key' } })
    expect(ok.status).toBe(200)
    expect(conforms('get', '/api/lists', 200, await ok.json())).toEqual([])
    const refused = await fetch(`${provider.url}/api/lists`, { headers: { 'x-pf-api-key': 'wrong' } })
    expect(refused.status).toBe(401)
    expect(conforms('get', '/api/lists', 401, await refused.json())).toEqual([])
  })

  it('documents the ops endpoints as they answer', async () => {
    for (const path of ['/health', '/ready', '/openapi.json']) {
      const res = await fetch(`${provider.url}${path}`)
      expect(conforms('get', path, res.status, await res.json())).toEqual([])
    }
  })
})
