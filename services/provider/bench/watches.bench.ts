import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { Client } from 'pg'
import { createLogger } from '@pf/service-kit'
import { locateReferenceData, startServiceProcess } from '@pf/testkit'
import { findPostgresBinaries, startPostgres } from '@pf/testkit/postgres'
import { SanctionsLists } from '../src/lists/sanctions-lists'
import { startCallbackSink } from './callback-sink'
import { round } from './stats'
import { watchSubjectLines } from './watch-subjects'

const MAIN = join(__dirname, '..', 'dist', 'main.js')
const API_KEY = 'pf-demo-api-key'
const LISTS = ['ofac-sdn-2024', 'ofac-consolidated', 'un-consolidated', 'us-csl', 'opensanctions-ftm']
const HOUR_MS = '3600000'

type Row = { benchmark: string; metric: string; value: number | string; target: string }

/** A process's resident set in MB (Linux `/proc`). */
function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024
}

/** The provider's V8 heap in use, in MB, from its own `/metrics`. */
async function heapUsedMb(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text()
  return Number(/^pf_provider_nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? NaN) / 1024 / 1024
}

/** The machine's load average over the last minute (the machine is shared: figures move with it). */
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0]

/** Peaks of the provider's RSS (every 100 ms) and heap (every 2 s) while `run` runs. */
async function sampled<T>(pid: number, url: string, run: () => Promise<T>) {
  const peak = { rss: residentMb(pid), heap: await heapUsedMb(url) }
  const rss = setInterval(() => (peak.rss = Math.max(peak.rss, residentMb(pid))), 100)
  const heap = setInterval(
    () =>
      void heapUsedMb(url).then(
        (mb) => (peak.heap = Math.max(peak.heap, mb)),
        () => {},
      ),
    2000,
  )
  try {
    return { result: await run(), peak }
  } finally {
    clearInterval(rss)
    clearInterval(heap)
  }
}

/** POSTs the JSON Lines chunks as one streamed request body; resolves with the answer. */
function postLines(url: string, chunks: readonly Buffer[]) {
  return new Promise<{ status: number; body: { accepted?: number; rejectedCount?: number } }>(
    (resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', headers: { 'content-type': 'application/x-ndjson', 'x-pf-api-key': API_KEY } },
        (res) => {
          let text = ''
          res.setEncoding('utf8').on('data', (piece: string) => (text += piece))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as never }))
        },
      )
      req.on('error', reject)
      let next = 0
      const write = () => {
        while (next < chunks.length) if (!req.write(chunks[next++])) return void req.once('drain', write)
        req.end()
      }
      write()
    },
  )
}

/**
 * Watches at scale (issue 40), through the built provider (`dist/main.js`, run `pnpm build` first) in a process
 * of its own against a private PostgreSQL, with every reference list: `BENCH_WATCH_SUBJECTS` subjects (default
 * 1,000,000) loaded in one JSON Lines request to `POST /api/watches/{id}/subjects` (subjects per second), then
 * the screener's full screening of them (from the upload's answer until the backlog is 0; the idle screener's
 * poll is an hour apart, so it starts when the upload wakes it and does not share the CPU with the upload), and
 * the provider's RSS and V8 heap peaks in each phase. `BENCH_WATCH_CPU_PROF=<dir>` writes the provider's CPU
 * profile there (`--cpu-prof`). Skipped without PostgreSQL's binaries.
 */
export async function benchWatches(): Promise<Row[]> {
  if (!findPostgresBinaries())
    return [{ benchmark: 'watches', metric: 'skipped', value: 'no binaries', target: '' }]
  const count = Number(process.env.BENCH_WATCH_SUBJECTS ?? 1_000_000)
  const profile = process.env.BENCH_WATCH_CPU_PROF
  const reference = locateReferenceData(__dirname)
  const sources = LISTS.map((list) => join(reference, list))
  const lists = await SanctionsLists.load(sources, {
    timeoutMs: 30_000,
    maxBytes: 256 * 1024 * 1024,
    logger: createLogger({ name: 'bench', level: 'silent' }),
  })
  const entries = lists.current().index.entries
  const listed = entries.map(({ name }) => name).filter((name) => name.length <= 256)
  const chunks = watchSubjectLines(count, listed)
  const postgres = await startPostgres({ settings: { shared_buffers: '256MB', max_wal_size: '4GB' } })
  const sink = await startCallbackSink()
  let drained: (screened: number) => void = () => {}
  let failed: (error: Error) => void = () => {}
  const screenedLog = new Promise<number>((resolve, reject) => ([drained, failed] = [resolve, reject]))
  const provider = await startServiceProcess({
    // Node refuses `--cpu-prof` in NODE_OPTIONS: with a profile, the flags go first and the script after them.
    ...(profile ? { entry: '--cpu-prof', args: [`--cpu-prof-dir=${profile}`, MAIN] } : { entry: MAIN }),
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      SANCTIONS_SOURCES: sources.join(','),
      WATCHES_DATABASE_URL: postgres.url,
      OUTBOUND_ALLOW_PRIVATE: 'true',
      HTTP_REQUEST_TIMEOUT_MS: HOUR_MS,
      WATCH_SUBJECTS_TIMEOUT_MS: HOUR_MS,
      WATCH_SCREENING_INTERVAL_MS: HOUR_MS,
    },
    readyMessage: 'provider listening',
    onLog: (line) => {
      if (line.msg === 'watched subjects screened') drained(Number(line.screened))
      if (line.msg === 'watch screening failed; the subjects stay in the backlog')
        failed(new Error(`screening failed: ${JSON.stringify(line.err)}`))
    },
  })
  const db = new Client({ connectionString: postgres.url })
  await db.connect()
  try {
    const { url } = provider.readyLine as { url: string }
    const pid = provider.child.pid as number
    const put = await fetch(`${url}/api/watches/bench`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-pf-api-key': API_KEY },
      body: JSON.stringify({ alertUrl: sink.url, alertToken: 'bench-alert-token' }),
    })
    if (put.status !== 201) throw new Error(`PUT watch: ${put.status} ${await put.text()}`)
    const ready = { rss: residentMb(pid), heap: await heapUsedMb(url) }

    const loadAtIngest = load()
    let started = performance.now()
    const ingest = await sampled(pid, url, () => postLines(`${url}/api/watches/bench/subjects`, chunks))
    const ingestSeconds = (performance.now() - started) / 1000
    const loadAfterIngest = load()
    const { accepted, rejectedCount } = ingest.result.body
    if (ingest.result.status !== 200 || accepted !== count)
      throw new Error(`subjects upload: ${ingest.result.status} ${JSON.stringify(ingest.result.body)}`)

    const loadAtScreening = load()
    started = performance.now()
    const screening = await sampled(pid, url, () => screenedLog)
    const screenSeconds = (performance.now() - started) / 1000
    const loadAfterScreening = load()
    const { rows } = await db.query<{ backlog: string; hits: string; alerts: string }>(
      `SELECT (SELECT count(*) FROM watch_subjects WHERE screened_revision IS DISTINCT FROM revision) AS backlog,
              (SELECT count(*) FROM watch_hits) AS hits, (SELECT count(*) FROM watch_alerts) AS alerts`,
    )
    const after = rows[0]!
    if (Number(after.backlog) !== 0 || screening.result !== count)
      throw new Error(`screened ${screening.result} of ${count}, backlog ${after.backlog}`)
    const mb = (peak: { rss: number; heap: number }) => `${Math.round(peak.rss)} / ${Math.round(peak.heap)}`
    return [
      {
        benchmark: `watch subjects upload: ${accepted} subjects in one JSON Lines POST (${rejectedCount} rejected; load ${loadAtIngest} → ${loadAfterIngest})`,
        metric: 'subjects/s',
        value: Math.round(accepted / ingestSeconds),
        target: '>= 20000',
      },
      {
        benchmark: `watch screening of ${count} subjects against ${entries.length} entries: backlog to 0 (${after.hits} hits, ${after.alerts} alerts; load ${loadAtScreening} → ${loadAfterScreening})`,
        metric: 's',
        value: round(screenSeconds, 1),
        target: count === 1_000_000 ? '<= 600' : '<= 600 at 1000000',
      },
      {
        benchmark: `built provider with ${count} watched subjects: RSS / heap ready, peak during upload, peak during screening`,
        metric: 'MB',
        value: `${mb(ready)}; ${mb(ingest.peak)}; ${mb(screening.peak)}`,
        target: 'RSS <= 512',
      },
    ]
  } finally {
    await db.end()
    await provider.stop('SIGTERM', { killAfterMs: 60_000 })
    sink.close()
    await postgres.destroy()
  }
}
