import { createServer, type Server, type Socket } from 'node:net'
import { GetObjectCommand } from '@aws-sdk/client-s3'
import { createCleanup } from '@pf/testkit'
import type { S3ServerHandle } from '@pf/testkit/s3'
import { query, startProvider, startRecorder, startStore, type StartedProvider } from './support-http'

// The envelope rules exactly as the spec gives them (any string queryId, any other mechanism → inline), and the
// bounds past which a query is refused before any work: names, prefixes, buckets, ports, a hung store.
let store: S3ServerHandle
let provider: StartedProvider
let callbacks: Awaited<ReturnType<typeof startRecorder>>
const cleanup = createCleanup(afterAll)
beforeAll(async () => {
  store = cleanup.add(await startStore(), (s) => s.stop())
  provider = cleanup.add(await startProvider(store), (p) => p.stop())
  callbacks = cleanup.add(await startRecorder(), (r) => r.close())
})

let counter = 0
const envelope = (extra: Record<string, unknown> = {}) => ({
  queryId: `h-${++counter}`,
  callbackUrl: `${callbacks.url}/cb`,
  parameters: { name: 'deutsche bahn' },
  ...extra,
})
const read = async (bucket: string, key: string) =>
  (await provider.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body!.transformToString()

describe('queryId: any string the spec allows, refused only where an object key cannot hold it', () => {
  it("accepts the spec's own test vector q-ü-1003, and stores it under <prefix><queryId>.json", async () => {
    const res = await query(
      provider.url,
      'companies',
      envelope({ queryId: 'q-ü-1003', delivery: { mechanism: 'pf_s3_sync', s3KeyPrefix: 'v/' } }),
    )
    expect(res.status).toBe(200)
    expect(res.body.delivery).toEqual({
      mechanism: 'pf_s3_sync',
      reference: 's3://pf-deliveries/v/q-ü-1003.json',
    })
    expect(JSON.parse(await read('pf-deliveries', 'v/q-ü-1003.json'))).toEqual(expect.any(Array))
  })

  it.each([
    ['a .. segment', '../escape'],
    ['a leading slash', '/root'],
    ['a control character', 'q\u0000x'],
    ['more than an object key holds', 'q'.repeat(1020)],
  ])('refuses %s with 400 {error}', async (_what, queryId) => {
    const res = await query(provider.url, 'companies', envelope({ queryId }))
    expect(res.status).toBe(400)
    expect(Object.keys(res.body)).toEqual(['error'])
  })

  it('accepts spaces, slashes inside, colons and dots that are not segments', async () => {
    expect((await query(provider.url, 'companies', envelope({ queryId: 'batch 7/q:1..2' }))).status).toBe(200)
  })
})

describe('delivery: any other mechanism is inline; object keys stay inside their prefix and allowed buckets', () => {
  it.each([5, true, { s3: 1 }, 'S3'])(
    'treats mechanism %j as inline (spec: any other value)',
    async (mechanism) => {
      const res = await query(provider.url, 'companies', envelope({ delivery: { mechanism } }))
      expect(res.status).toBe(200)
      expect(res.body.results).toEqual(expect.any(Array))
    },
  )

  it.each(['../../x/', '/abs/', 'a/./b/', 'tab\t/'])(
    'refuses s3KeyPrefix %j with 400 {error, queryId}',
    async (s3KeyPrefix) => {
      const sent = envelope({ delivery: { mechanism: 'pf_s3_sync', s3KeyPrefix } })
      const res = await query(provider.url, 'companies', sent)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: expect.stringMatching(/s3KeyPrefix/), queryId: sent.queryId })
    },
  )

  it('refuses a bucket outside S3_ALLOWED_BUCKETS, and writes to one inside it', async () => {
    const strict = await startProvider(store, { allowedBuckets: ['pf-deliveries'] })
    try {
      const refused = await query(
        strict.url,
        'companies',
        envelope({ delivery: { mechanism: 'pf_s3_sync', s3Bucket: 'their-bucket' } }),
      )
      expect(refused.status).toBe(400)
      expect(refused.body.error).toMatch(/their-bucket" is not allowed/)
      const allowed = await query(
        strict.url,
        'companies',
        envelope({ delivery: { mechanism: 'pf_s3_sync' } }),
      )
      expect(allowed.status).toBe(200)
    } finally {
      await strict.close()
      strict.s3.destroy()
    }
  })

  it('fails the query with a failed callback and a generic 500 when the store hangs (OUTBOUND_TIMEOUT_MS)', async () => {
    const sockets: Socket[] = []
    const hung: Server = createServer((socket) => void sockets.push(socket)) // accepts, never answers
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve))
    const port = (hung.address() as { port: number }).port
    const slow = await startProvider(store, { s3Endpoint: `http://127.0.0.1:${port}`, timeoutMs: 300 })
    const recorder = await startRecorder()
    try {
      const sent = envelope({ callbackUrl: `${recorder.url}/cb`, delivery: { mechanism: 'pf_s3_sync' } })
      const res = await query(slow.url, 'companies', sent)
      expect(res.status).toBe(500)
      expect(res.body).toEqual({ error: 'delivery failed', queryId: sent.queryId })
      expect(JSON.parse(recorder.requests[0]!.body.toString())).toMatchObject({
        status: 'failed',
        error: 'delivery failed',
      })
    } finally {
      for (const socket of sockets) socket.destroy()
      hung.close()
      await recorder.close()
      await slow.close()
      slow.s3.destroy()
    }
  })
})

describe('parameters have bounds (400 {error, queryId} past them)', () => {
  it.each([
    ['sanctions', { name: 'abc '.repeat(100) }],
    ['sanctions', { name: 'x', country: 'c'.repeat(101) }],
    ['companies', { name: 'n'.repeat(257) }],
    ['sanctions', { name: 'a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g' }], // 33 words
  ] as const)('%s %j', async (endpoint, parameters) => {
    const sent = envelope({ parameters })
    const res = await query(provider.url, endpoint, sent)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: expect.any(String), queryId: sent.queryId })
  })
})

describe('outbound: transition ranges and ports', () => {
  let strict: StartedProvider
  const strictCleanup = createCleanup(afterAll)
  beforeAll(async () => {
    strict = strictCleanup.add(
      await startProvider(store, { allowPrivate: false, allowedPorts: [443] }),
      (p) => p.stop(),
    )
  })

  it.each([
    'https://[::127.0.0.1]/cb', // IPv4-compatible IPv6, written [::7f00:1] by URL parsers
    'https://[::a9fe:a9fe]/cb', // 169.254.169.254 the same way
    'https://[64:ff9b::7f00:1]/cb', // NAT64
    'https://[2002:7f00:1::]/cb', // 6to4
    'https://example.com:8443/cb', // a port outside OUTBOUND_ALLOWED_PORTS
  ])('refuses callbackUrl %s with 400 {error}', async (callbackUrl) => {
    const res = await query(strict.url, 'companies', envelope({ callbackUrl }))
    expect(res.status).toBe(400)
  })
})

describe('/ready tells no internals', () => {
  it('answers 503 with a generic reason when the store is unreachable', async () => {
    const down = await startProvider(store, { s3Endpoint: 'http://127.0.0.1:9', timeoutMs: 300 })
    try {
      const res = await fetch(`${down.url}/ready`)
      expect(res.status).toBe(503)
      const text = await res.text()
      expect(text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/)
    } finally {
      await down.close()
      down.s3.destroy()
    }
  })
})
