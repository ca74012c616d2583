import request from 'supertest'
import {
  createLogger,
  createMetricsRegistry,
  DEFAULT_OPS_SETTINGS,
  DEFAULT_SERVER_LIMITS,
} from '@pf/service-kit'
import { createS3Client } from '@pf/provider-kit'
import { SAMPLE_DATA_DIR } from '../src/config'
import { createProvider } from '../src/create-provider'

const logLines: { msg: string; callbackUrl?: string }[] = []
// Refusals that happen before any outbound call: the app runs in-process (supertest), no socket, no S3.
const { app } = createProvider(
  {
    port: 0,
    logLevel: 'silent',
    apiKeys: ['current-key', 'previous-key'],
    s3: { region: 'us-east-1', defaultBucket: 'pf-deliveries' },
    dataDir: SAMPLE_DATA_DIR,
    outbound: { allowPrivate: false, timeoutMs: 1000 },
    maxBodyBytes: 2048,
    searchBudgetMs: 2000,
    sanctions: { loadTimeoutMs: 120_000, maxBytes: 512 * 1024 * 1024, minShare: 0.5, maxNameLength: 1000 },
    server: DEFAULT_SERVER_LIMITS,
    ops: DEFAULT_OPS_SETTINGS,
  },
  {
    logger: createLogger({
      name: 'test',
      level: 'warn',
      destination: {
        write: (line: string) => void logLines.push(JSON.parse(line) as (typeof logLines)[number]),
      },
    }),
    registry: createMetricsRegistry('test'),
    s3: createS3Client({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1' }),
  },
)

describe('provider routes, in process', () => {
  it('answers 401 {error} as JSON for a missing or wrong X-PF-Api-Key (spec, "Authentication" 1)', async () => {
    for (const key of [undefined, 'wrong-key']) {
      const call = request(app)
        .post('/api/search/companies')
        .send({ queryId: 'q', callbackUrl: 'https://x.example' })
      const res = await (key ? call.set('X-PF-Api-Key', key) : call)
      expect(res.status).toBe(401)
      expect(res.headers['content-type']).toMatch(/^application\/json/)
      expect(res.body).toEqual({ error: 'invalid or missing X-PF-Api-Key header' })
    }
  })

  it('keeps /health exempt from the API key (spec, "Endpoints" A)', async () => {
    const res = await request(app).get('/health')
    expect(res.status).toBe(200)
  })

  it('accepts every key of a rotation', async () => {
    for (const key of ['current-key', 'previous-key']) {
      const res = await request(app).post('/api/search/companies').set('X-PF-Api-Key', key).send({})
      expect(res.status).toBe(400) // past the key check: the envelope lacks queryId and callbackUrl
    }
  })

  it('answers 413 {error} for a body over PROVIDER_MAX_BODY_BYTES', async () => {
    const res = await request(app)
      .post('/api/search/companies')
      .set('X-PF-Api-Key', 'current-key')
      .send({ queryId: 'q', callbackUrl: 'https://x.example', parameters: { name: 'x'.repeat(4096) } })
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ error: expect.any(String) })
  })

  it('refuses a callbackUrl at a non-public address with 400 {error} and no callback', async () => {
    const res = await request(app)
      .post('/api/search/companies')
      .set('X-PF-Api-Key', 'current-key')
      .send({ queryId: 'q', callbackUrl: 'http://169.254.169.254/latest' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'invalid query envelope: callbackUrl points at a non-public address' })
  })

  it("names OUTBOUND_ALLOW_PRIVATE in the log line of a non-public callbackUrl's refusal (never in the answer)", async () => {
    const res = await request(app)
      .post('/api/search/sanctions')
      .set('X-PF-Api-Key', 'current-key')
      .send({ queryId: 'q', callbackUrl: 'http://127.0.0.1:4000/callback', parameters: { name: 'x' } })
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).not.toMatch(/OUTBOUND_ALLOW_PRIVATE/)
    expect(logLines).toContainEqual(
      expect.objectContaining({
        callbackUrl: 'http://127.0.0.1:4000/callback',
        msg: expect.stringMatching(/non-public address.*OUTBOUND_ALLOW_PRIVATE=true/),
      }),
    )
  })
})
