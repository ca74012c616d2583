import { createLogger } from '@pf/service-kit'
import { createCleanup } from '@pf/testkit'
import { SanctionsLists } from '../src/lists/sanctions-lists'
import { API_KEY, startProvider, startStore, type StartedProvider } from './support-http'

// Issue 22, "the door says little": /health and /ready tell anyone who reaches them their status and nothing
// else, and /ready reaches S3 at most once per READY_CACHE_MS however often strangers call it.
const logger = createLogger({ name: 'test', level: 'silent' })
const lists = SanctionsLists.of(
  [
    {
      name: 'internal-sanctions',
      format: 'jsonl',
      source: '/srv/lists/internal-sanctions.jsonl',
      records: 0,
      sha256: 'ab'.repeat(32),
      version: 'ab'.repeat(32),
      loadedAt: new Date().toISOString(),
      namesCut: 0,
      entries: [],
    },
  ],
  logger,
)

let provider: StartedProvider
let headBuckets = 0
const cleanup = createCleanup(afterAll)
beforeAll(async () => {
  const store = cleanup.add(await startStore(), (s) => s.stop())
  provider = cleanup.add(await startProvider(store, { lists, ops: { readyCacheMs: 60_000 } }), (p) =>
    p.stop(),
  )
  // Every HeadBucket the readiness check sends, counted where the SDK sends it.
  provider.s3.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'HeadBucketCommand') headBuckets += 1
      return next(args)
    },
    { step: 'initialize', name: 'countHeadBucket' },
  )
})

describe('/health and /ready: the status only', () => {
  it('answers /health {status} and /ready {status}, without list sources, paths, counts or hashes', async () => {
    expect(await (await fetch(`${provider.url}/health`)).text()).toBe('{"status":"ok"}')
    expect(await (await fetch(`${provider.url}/ready`)).text()).toBe('{"status":"ready"}')
  })

  it('keeps the lists behind the API key (GET /api/lists)', async () => {
    expect((await fetch(`${provider.url}/api/lists`)).status).toBe(401)
    const res = await fetch(`${provider.url}/api/lists`, { headers: { 'x-pf-api-key': API_KEY } })
    expect(await res.json()).toMatchObject({
      lists: [{ name: 'internal-sanctions', source: '/srv/lists/internal-sanctions.jsonl' }],
    })
  })
})

describe('/ready reaches S3 at most once per READY_CACHE_MS', () => {
  it('sends one HeadBucket for 40 strangers at once and 20 more after them', async () => {
    const burst = await Promise.all(Array.from({ length: 40 }, () => fetch(`${provider.url}/ready`)))
    for (let i = 0; i < 20; i += 1) expect((await fetch(`${provider.url}/ready`)).status).toBe(200)
    expect(burst.map((res) => res.status)).toEqual(Array.from({ length: 40 }, () => 200))
    // One in all, the earlier tests' /ready included: the period (60 s here) has not ended.
    expect(headBuckets).toBe(1)
  })
})
