import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type OutgoingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { createGzip, gzipSync } from 'node:zlib'
import { createCleanup, startServiceProcess, type ServiceProcess } from '@pf/testkit'

// Issue 35, "Provider: lists", through the built provider: a refresh never swaps in a list cut short at its
// source, a list download stops at SANCTIONS_MAX_BYTES as its bytes arrive, and a listed name past
// SANCTIONS_MAX_NAME_LENGTH is cut at load rather than taxing every query.
const main = join(__dirname, '..', 'dist', 'main.js')
beforeAll(() => {
  if (!existsSync(main)) throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
})
const cleanup = createCleanup(afterEach)
const KEY = 'pf-demo-api-key'
const MiB = 1024 * 1024

const jsonl = (names: string[]) =>
  names.map((name, i) => JSON.stringify({ id: `W${i}`, name })).join('\n') + '\n'
const WATCHED = [
  'QUIRINUS ABERNATHY',
  'OSWALDINE FERRAGAMO',
  'ZEPHYRINE MARKETPLACE HOLDINGS',
  'BARNABY QUILLFEATHER',
  'PERPETUA WINTERBOTTOM',
  'HORATIO BLACKTHORNE',
  'CLEMENTINE ASHWORTH',
  'LEOPOLD VANDERMEER',
  'THEODORA KESTERTON',
  'AMBROSIUS DELACROIX',
]

async function startProvider(env: Record<string, string>): Promise<ServiceProcess & { url: string }> {
  const provider = await startServiceProcess({
    entry: main,
    env: { PATH: process.env.PATH, PORT: '0', OUTBOUND_ALLOW_PRIVATE: 'true', ...env },
    readyMessage: 'provider listening',
  })
  cleanup.add(provider, (p) => p.stop('SIGKILL'))
  return Object.assign(provider, { url: (provider.readyLine as { url: string }).url })
}

const get = async (url: string) => (await fetch(url, { headers: { 'x-pf-api-key': KEY } })).json()
interface ListsBody {
  lists: { name: string; records: number; namesCut: number }[]
  lastRefresh: {
    ok: boolean
    refused?: { list: string; records: number; held?: number; rule: string }[]
  } | null
}
const listsOf = async (url: string) => (await get(`${url}/api/lists`)) as ListsBody
const screen = async (url: string, name: string) => {
  const res = await fetch(`${url}/api/search/sanctions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pf-api-key': KEY },
    body: JSON.stringify({
      queryId: `q-${name.length}`,
      callbackUrl: 'http://127.0.0.1:9/cb',
      parameters: { name },
    }),
  })
  return ((await res.json()) as { results: { id: string; matchedName: string; score: number }[] }).results
}
const metric = async (url: string, series: string) => {
  const line = (await (await fetch(`${url}/metrics`)).text())
    .split('\n')
    .find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

/** Resolves once the process has logged `msg` `count` times (a hang guard: Jest's time-out). */
async function logged(provider: ServiceProcess, msg: string, count = 1) {
  const lines = () => provider.logs.filter((line) => line.msg === msg)
  while (lines().length < count) await new Promise((resolve) => setTimeout(resolve, 20))
  return lines()[count - 1] as Record<string, unknown>
}

describe('a list never shrinks silently (SANCTIONS_MIN_SHARE, default 0.5)', () => {
  it('refuses a SIGHUP refresh that parses to fewer than half the records held: the list in use stays, the refresh counts as failed, the log and /api/lists name the list, both counts and the rule; half is accepted, and a restart accepts the smaller list', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pf-shrink-')), 'watch-sanctions.jsonl')
    writeFileSync(file, jsonl(WATCHED))
    const provider = await startProvider({ SANCTIONS_SOURCES: file })
    expect((await listsOf(provider.url)).lists).toMatchObject([{ name: 'watch-sanctions', records: 10 }])

    // A feed cut short: 4 of the 10 records.
    writeFileSync(file, jsonl(WATCHED.slice(0, 4)))
    provider.child.kill('SIGHUP')
    const failure = await logged(provider, 'sanctions lists refresh failed; the previous lists stay in use')
    const refusal = {
      list: 'watch-sanctions',
      records: 4,
      held: 10,
      rule: expect.stringContaining('SANCTIONS_MIN_SHARE (0.5)'),
    }
    expect(failure).toMatchObject({ refused: [refusal] })
    expect((failure.err as { message: string }).message).toMatch(
      /watch-sanctions parsed to 4 records, 10 held: a refresh keeps at least SANCTIONS_MIN_SHARE \(0\.5\)/,
    )
    const kept = await listsOf(provider.url)
    expect(kept.lists).toMatchObject([{ name: 'watch-sanctions', records: 10 }])
    expect(kept.lastRefresh).toEqual({ ok: false, at: expect.any(String), refused: [refusal] })
    expect((await screen(provider.url, 'Ambrosius Delacroix'))[0]).toMatchObject({ id: 'W9', score: 100 })
    expect(await metric(provider.url, 'pf_provider_list_refreshes_total{outcome="failed"}')).toBe(1)

    // Half of what is held is kept: swapped in.
    writeFileSync(file, jsonl(WATCHED.slice(0, 5)))
    provider.child.kill('SIGHUP')
    await logged(provider, 'sanctions lists refreshed')
    expect((await listsOf(provider.url)).lists).toMatchObject([{ records: 5 }])
    expect(await screen(provider.url, 'Ambrosius Delacroix')).toEqual([])
    expect(await metric(provider.url, 'pf_provider_list_refreshes_total{outcome="ok"}')).toBe(1)
    expect(await provider.stop()).toBe(0)

    // An operator accepts a legitimate large shrink by restarting: no count is held then.
    writeFileSync(file, jsonl(WATCHED.slice(0, 2)))
    const restarted = await startProvider({ SANCTIONS_SOURCES: file })
    expect((await listsOf(restarted.url)).lists).toMatchObject([{ name: 'watch-sanctions', records: 2 }])
  })

  it('refuses an empty list at start, exit 1 naming it, unless its source is marked allow-empty: before any format prefix', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pf-empty-')), 'consolidated.xml')
    writeFileSync(
      file,
      '<CONSOLIDATED_LIST dateGenerated="2026-01-01T00:00:00Z"><INDIVIDUALS/><ENTITIES/></CONSOLIDATED_LIST>\n',
    )
    await expect(startProvider({ SANCTIONS_SOURCES: file })).rejects.toThrow(
      new RegExp(
        `exited with code 1 before it was ready\\nprovider: failed to start: sanctions list un-sc-consolidated is empty: an empty list is refused unless its source is marked allow-empty: \\(allow-empty:${file}\\)\\n$`,
      ),
    )
    const allowed = await startProvider({ SANCTIONS_SOURCES: `allow-empty:un-xml:${file}` })
    expect((await listsOf(allowed.url)).lists).toMatchObject([{ name: 'un-sc-consolidated', records: 0 }])
  })
})

/**
 * A list server answering each GET with `body` as fast as the client takes it (`headers` first), and counting
 * the bytes it wrote before the client closed.
 */
async function listServer(headers: OutgoingHttpHeaders, body: () => Readable) {
  let written = 0
  let closed: Promise<number> | undefined
  const server = createServer((_req, res) => {
    closed = new Promise((resolve) => res.once('close', () => resolve(written)))
    res.writeHead(200, headers)
    const source = body()
    res.once('close', () => source.destroy())
    source.on('data', (chunk: Buffer) => {
      const more = res.write(chunk, (error) => {
        if (!error) written += chunk.length
      })
      if (!more) {
        source.pause()
        res.once('drain', () => source.resume())
      }
    })
    source.once('end', () => res.end())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanup.add(
    server,
    (s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve()))),
  )
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feeds/watch-sanctions.jsonl`,
    /** What was written before the client closed. */
    written: () => closed as Promise<number>,
  }
}

/** JSON Lines records up to `bytes`, in 64 KiB chunks, made as they are read. */
function records(bytes: number): Readable {
  return Readable.from(
    (function* () {
      let line = 0
      for (let sent = 0; sent < bytes;) {
        let chunk = ''
        while (chunk.length < 64 * 1024)
          chunk += `${JSON.stringify({ id: `G${line}`, name: `PARTY ${(line += 1)}` })}\n`
        sent += chunk.length
        yield Buffer.from(chunk)
      }
    })(),
    { objectMode: false },
  )
}

// The serving side's own socket send buffer holds bytes the client never took: Linux grows it on loopback up to
// tcp_wmem's largest value (4 MiB by default). Beyond it, the client may have taken at most 1 MiB past the limit
// (its socket's receive buffer, fetch's queue, the chunk that passed the limit) when it closed.
const SEND_BUFFER = existsSync('/proc/sys/net/ipv4/tcp_wmem')
  ? Number(readFileSync('/proc/sys/net/ipv4/tcp_wmem', 'utf8').trim().split(/\s+/)[2])
  : 4 * MiB
const LIMIT = 1 * MiB
const refusedAtLimit = (shown: string) =>
  new RegExp(
    `exited with code 1 before it was ready\\nprovider: failed to start: ${shown} is larger than ${LIMIT} bytes \\(SANCTIONS_MAX_BYTES\\)\\n$`,
  )

describe('download limits hold while streaming (SANCTIONS_MAX_BYTES, counted after decompression)', () => {
  it('stops a chunked body at the limit: the serving side wrote at most the limit + 1 MiB (and its own send buffer) before the provider closed', async () => {
    // 32 MiB stands for a body of gigabytes: a provider that reads it whole fails the test, not the machine.
    const feed = await listServer({ 'content-type': 'application/x-ndjson' }, () => records(32 * MiB))
    await expect(
      startProvider({ SANCTIONS_SOURCES: feed.url, SANCTIONS_MAX_BYTES: String(LIMIT) }),
    ).rejects.toThrow(refusedAtLimit(feed.url))
    expect(await feed.written()).toBeLessThanOrEqual(LIMIT + 1 * MiB + SEND_BUFFER)
  })

  it('stops a Content-Encoding: gzip body at the limit of its decompressed bytes: the serving side wrote at most the limit + 1 MiB (and its own send buffer) of it', async () => {
    // 12 MiB of gzip inflating about ten times over.
    const feed = await listServer(
      { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
      () => {
        const gzip = createGzip({ level: 1 })
        let compressed = 0
        const counted = records(Number.POSITIVE_INFINITY).pipe(gzip)
        gzip.on('data', (chunk: Buffer) => {
          compressed += chunk.length
          if (compressed > 12 * MiB) counted.destroy()
        })
        return counted
      },
    )
    await expect(
      startProvider({ SANCTIONS_SOURCES: feed.url, SANCTIONS_MAX_BYTES: String(LIMIT) }),
    ).rejects.toThrow(refusedAtLimit(feed.url))
    expect(await feed.written()).toBeLessThanOrEqual(LIMIT + 1 * MiB + SEND_BUFFER)
  })

  it('refuses a gzip bomb whose declared, compressed length is far under the limit: its bytes are counted as they are decompressed', async () => {
    const line = `${JSON.stringify({ id: 'B', name: 'GZIP BOMB HOLDINGS' })}\n`
    const bomb = gzipSync(line.repeat(Math.ceil((64 * MiB) / line.length)), { level: 9 })
    expect(bomb.length).toBeLessThan(LIMIT / 4)
    const feed = await listServer(
      { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip', 'content-length': bomb.length },
      () => Readable.from([bomb]),
    )
    await expect(
      startProvider({ SANCTIONS_SOURCES: feed.url, SANCTIONS_MAX_BYTES: String(LIMIT) }),
    ).rejects.toThrow(refusedAtLimit(feed.url))
  })

  it('holds the same limit for a file on disk', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pf-big-')), 'big-sanctions.jsonl')
    writeFileSync(file, jsonl(Array.from({ length: 40_000 }, (_, i) => `LISTED PARTY NUMBER ${i}`)))
    await expect(
      startProvider({ SANCTIONS_SOURCES: file, SANCTIONS_MAX_BYTES: String(LIMIT) }),
    ).rejects.toThrow(refusedAtLimit(file))
  })
})

describe('long listed names cannot tax every query (SANCTIONS_MAX_NAME_LENGTH, default 1000)', () => {
  it('cuts a 200 000-character name and a 5000-character alias at load, with a warning and namesCut on /api/lists; the entry stays screenable by its cut name', async () => {
    const words = ['ZEPHYRINE', 'QUINTANILLA', 'MARKETPLACE', 'HOLDINGS', 'INTERNATIONAL', 'TRADING']
    let long = ''
    for (let i = 0; long.length < 200_000; i += 1) long += `${i === 0 ? '' : ' '}${words[i % words.length]}`
    const file = join(mkdtempSync(join(tmpdir(), 'pf-long-')), 'watch-sanctions.jsonl')
    writeFileSync(
      file,
      [
        JSON.stringify({ id: 'W1', name: 'QUIRINUS ABERNATHY' }),
        JSON.stringify({ id: 'LONG', name: long, aliases: ['X'.repeat(5000)] }),
      ].join('\n'),
    )
    const provider = await startProvider({ SANCTIONS_SOURCES: file })
    expect(
      provider.logs.find((line) => String(line.msg).startsWith('listed names longer than')),
    ).toMatchObject({
      level: 40,
      list: 'watch-sanctions',
      namesCut: 2,
      longest: long.length,
      limit: 1000,
    })
    expect((await listsOf(provider.url)).lists).toMatchObject([
      { name: 'watch-sanctions', records: 2, namesCut: 2 },
    ])
    const [hit] = await screen(provider.url, 'Zephyrine Quintanilla Marketplace Holdings')
    expect(hit).toMatchObject({ id: 'LONG' })
    expect(hit!.matchedName.length).toBeLessThanOrEqual(1000)
    expect(hit!.matchedName.length).toBeGreaterThan(900)
    // Cut before a word: what is kept is the name's start, up to a whole word.
    expect(long.startsWith(`${hit!.matchedName} `)).toBe(true)
    expect((await screen(provider.url, 'Quirinus Abernathy'))[0]).toMatchObject({ id: 'W1', score: 100 })
  })
})
