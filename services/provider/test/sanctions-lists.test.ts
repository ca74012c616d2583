import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { createLogger } from '@pf/service-kit'
import { createCleanup } from '@pf/testkit'
import type { S3ServerHandle } from '@pf/testkit/s3'
import { SanctionsLists } from '../src/lists/sanctions-lists'
import { API_KEY, query, startProvider, startRecorder, startStore } from './support-http'
import { referenceData } from './support-data'

// Several lists at once, each hit naming its list, answers naming the versions they were computed on, and a
// refresh that swaps the index atomically and keeps the previous one when a source fails.
const logger = createLogger({ name: 'test', level: 'silent' })
const options = { timeoutMs: 30_000, maxBytes: 64 * 1024 * 1024, logger }
const jsonl = (...names: string[]) => names.map((name, i) => JSON.stringify({ id: `L${i}`, name })).join('\n')

let store: S3ServerHandle
let callbacks: Awaited<ReturnType<typeof startRecorder>>
const cleanup = createCleanup(afterAll)
beforeAll(async () => {
  store = cleanup.add(await startStore(), (s) => s.stop())
  callbacks = cleanup.add(await startRecorder(), (r) => r.close())
})

async function start(lists: SanctionsLists) {
  const server = await startProvider(store, { lists })
  return { server, provider: { refreshLists: () => lists.refresh() } }
}
const screen = (url: string, name: string) =>
  query(url, 'sanctions', {
    queryId: `l-${name}`,
    callbackUrl: `${callbacks.url}/cb`,
    parameters: { name, threshold: 90 },
  })
const first = (body: Record<string, unknown>) => (body.results as unknown[])[0]
const listsOf = async (url: string) =>
  (await (await fetch(`${url}/api/lists`, { headers: { 'x-pf-api-key': API_KEY } })).json()) as {
    lists: { name: string; records: number; sha256: string; loadedAt: string; source: string }[]
    lastRefresh: { ok: boolean } | null
  }

describe('several lists: OFAC SDN and the consolidated (non-SDN) list in OFAC CSV, and JSON Lines', () => {
  it('screens against all of them, each hit naming its list, each answer naming the list versions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-lists-'))
    writeFileSync(join(dir, 'internal-sanctions.jsonl'), jsonl('ZEPHYRINE MARKETPLACE HOLDINGS'))
    const lists = await SanctionsLists.load(
      [referenceData('ofac-sdn-2021'), referenceData('ofac-consolidated'), dir],
      options,
    )
    const { server } = await start(lists)
    try {
      const { lists: loaded } = await listsOf(server.url)
      expect(loaded.map((l) => [l.name, l.records])).toEqual([
        ['ofac-sdn', 8976],
        ['ofac-consolidated', 442],
        ['internal-sanctions', 1],
      ])
      expect(
        loaded.every((l) => /^[0-9a-f]{64}$/.test(l.sha256) && !Number.isNaN(Date.parse(l.loadedAt))),
      ).toBe(true)
      const sdn = await screen(server.url, 'Banco Nacional de Cuba')
      expect(first(sdn.body)).toMatchObject({ list: 'ofac-sdn' })
      expect(sdn.body.lists).toEqual(loaded.map(({ name, sha256 }) => ({ name, sha256 })))
      const consolidated = await screen(server.url, 'Haniya Ismail Abdul Salah')
      expect(first(consolidated.body)).toMatchObject({ list: 'ofac-consolidated' })
      const own = await screen(server.url, 'Zephyrine Marketplace Holdings')
      expect(first(own.body)).toMatchObject({ list: 'internal-sanctions', score: 100 })
      // The door says little: what is loaded is for API-key holders (/api/lists), never /ready.
      expect(await (await fetch(`${server.url}/ready`)).json()).toEqual({ status: 'ready' })
    } finally {
      await server.close()
      server.s3.destroy()
    }
  })
})

describe('refresh (SANCTIONS_REFRESH_INTERVAL, SIGHUP): atomic swap, previous index kept on failure', () => {
  it('swaps in a changed list, and keeps serving the previous one when the source breaks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-lists-'))
    const file = join(dir, 'watch-sanctions.jsonl')
    writeFileSync(file, jsonl('QUIRINUS ABERNATHY'))
    const lists = await SanctionsLists.load([dir], options)
    const { provider, server } = await start(lists)
    try {
      const before = (await listsOf(server.url)).lists[0]!
      expect((await screen(server.url, 'Quirinus Abernathy')).body.recordCount).toBe(1)

      writeFileSync(file, jsonl('QUIRINUS ABERNATHY', 'OSWALDINE FERRAGAMO'))
      expect(await provider.refreshLists()).toMatchObject({ ok: true })
      const after = await listsOf(server.url)
      expect(after.lists[0]).toMatchObject({ records: 2 })
      expect(after.lists[0]!.sha256).not.toBe(before.sha256)
      const found = await screen(server.url, 'Oswaldine Ferragamo')
      expect(found.body.recordCount).toBe(1)
      expect(found.body.lists).toEqual([{ name: 'watch-sanctions', sha256: after.lists[0]!.sha256 }])

      writeFileSync(file, '{not json')
      expect(await provider.refreshLists()).toMatchObject({ ok: false })
      const kept = await listsOf(server.url)
      expect(kept.lists[0]!.sha256).toBe(after.lists[0]!.sha256)
      expect(kept.lastRefresh).toEqual({ ok: false, at: expect.any(String) })
      expect((await screen(server.url, 'Oswaldine Ferragamo')).body.recordCount).toBe(1)
    } finally {
      await server.close()
      server.s3.destroy()
    }
  })

  it('refuses a refresh that no longer finds a list (it counts 0 records) or finds a new one empty, unless its source is marked allow-empty:', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-lists-'))
    writeFileSync(join(dir, 'a-sanctions.jsonl'), jsonl('QUIRINUS ABERNATHY', 'OSWALDINE FERRAGAMO'))
    writeFileSync(join(dir, 'b-sanctions.jsonl'), jsonl('BARNABY QUILLFEATHER'))
    const lists = await SanctionsLists.load([dir], options)
    rmSync(join(dir, 'b-sanctions.jsonl'))
    expect(await lists.refresh()).toMatchObject({
      ok: false,
      refused: [{ list: 'b-sanctions', records: 0, held: 1 }],
    })
    expect(lists.current().lists.map((l) => [l.name, l.records])).toEqual([
      ['a-sanctions', 2],
      ['b-sanctions', 1],
    ])

    writeFileSync(join(dir, 'b-sanctions.jsonl'), jsonl('BARNABY QUILLFEATHER'))
    writeFileSync(join(dir, 'c-sanctions.jsonl'), '')
    const outcome = await lists.refresh()
    expect(outcome).toMatchObject({ ok: false, refused: [{ list: 'c-sanctions', records: 0 }] })
    expect(outcome.error).toMatch(/sanctions list c-sanctions is empty: .*allow-empty:/)
    const allowed = await SanctionsLists.load([`allow-empty:${dir}`], options)
    expect(allowed.current().lists.map((l) => [l.name, l.records])).toEqual([
      ['a-sanctions', 2],
      ['b-sanctions', 1],
      ['c-sanctions', 0],
    ])
  })

  it('accepts any shrink with SANCTIONS_MIN_SHARE 0, and refuses any with 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-lists-'))
    const file = join(dir, 'watch-sanctions.jsonl')
    writeFileSync(file, jsonl('QUIRINUS ABERNATHY', 'OSWALDINE FERRAGAMO'))
    const strict = await SanctionsLists.load([dir], { ...options, minShare: 1 })
    const lenient = await SanctionsLists.load([dir], { ...options, minShare: 0 })
    writeFileSync(file, jsonl('QUIRINUS ABERNATHY'))
    expect(await strict.refresh()).toMatchObject({ ok: false, refused: [{ records: 1, held: 2 }] })
    expect(await lenient.refresh()).toMatchObject({ ok: true })
    expect(lenient.current().lists[0]).toMatchObject({ records: 1 })
  })

  it('needs the API key for /api/lists', async () => {
    const lists = await SanctionsLists.load([referenceData('ofac-consolidated')], options)
    const { server } = await start(lists)
    try {
      expect((await fetch(`${server.url}/api/lists`)).status).toBe(401)
    } finally {
      await server.close()
      server.s3.destroy()
    }
  })
})

describe('list sources never show their credentials or tokens (issues 22, 35), in /api/lists or in logs', () => {
  const started = createCleanup(afterEach)
  it('fetches a list URL with its credentials as Basic auth, and shows it with *** for them (redactUrl)', async () => {
    const seen: { authorization?: string; url?: string }[] = []
    let status = 200
    const feed = createServer((req, res) => {
      seen.push({ authorization: req.headers.authorization, url: req.url })
      res.writeHead(status).end(status === 200 ? jsonl('QUENTIN LISTHOLDER') : '')
    })
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve))
    started.add(feed, (f) => new Promise<void>((resolve) => f.close(() => resolve())))
    const base = `http://127.0.0.1:${(feed.address() as AddressInfo).port}`
    const logs: string[] = []
    const capture = createLogger({
      name: 'test',
      destination: new Writable({ write: (chunk, _enc, done) => void (logs.push(String(chunk)), done()) }),
    })
    const source = `${base.replace('//', '//reader:s3cr3t-pw@')}/feeds/watch-sanctions.jsonl?token=t0ken-value`
    const shown = base.replace('//', '//***@')
    const lists = await SanctionsLists.load([source], { ...options, logger: capture })
    const { server } = await start(lists)
    started.add(server, (p) => p.stop())
    expect(seen).toEqual([
      {
        authorization: `Basic ${Buffer.from('reader:s3cr3t-pw').toString('base64')}`,
        url: '/feeds/watch-sanctions.jsonl?token=t0ken-value',
      },
    ])
    const listed = await listsOf(server.url)
    expect(listed.lists.map((l) => [l.name, l.source])).toEqual([
      ['watch-sanctions', `${shown}/feeds/watch-sanctions.jsonl?token=***`],
    ])

    status = 503
    expect(await lists.refresh()).toMatchObject({ ok: false })
    const failure = logs.find((line) => line.includes('refresh failed'))
    expect(failure).toContain(`${shown}/feeds/watch-sanctions.jsonl?token=*** answered 503`)
    expect(JSON.stringify([logs, await listsOf(server.url)])).not.toMatch(/reader|s3cr3t|t0ken/)
  })
})
