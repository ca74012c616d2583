// `pnpm --filter @pf/provider bench:compare`: the built provider of this tree against the commit before
// @pf/provider-kit (issue 37's "no loss": medians within 5 %), both as processes driven by this one script.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startServiceProcess } from '@pf/testkit'
import { findPostgresBinaries, startPostgres } from '@pf/testkit/postgres'
import { startS3Server } from '@pf/testkit/s3'
import { importCompanies } from '../src/companies/import/import-companies'
import { loadOfacCsv } from '../src/datasets/load-ofac-csv'
import { screeningQueries } from '../scripts/screening-queries'
import { buildCommit, commitBefore } from './build-commit'
import { startCallbackSink } from './callback-sink'
import { compareMedians } from './compare-medians'
import { measureProvider, type MeasurePlan, type ProviderMeasures } from './measure-provider'
import { writeRegistry } from './write-registry'

const USAGE = `usage: pnpm --filter @pf/provider bench:compare [-- options]

Builds the old commit in a git worktree beside this tree (pnpm install --frozen-lockfile, then the provider
and its workspace dependencies), imports --records generated companies into a private PostgreSQL, then starts
each build's services/provider/dist/main.js in turn (old, new, new, old, ...), --runs times each, and measures:
an inline answer of 10,000 companies (the schema's largest), a pf_s3_sync delivery of every company, screening
p95 over HTTP on the 2024 SDN list, requests per second of a small inline query. Prints each build's medians,
new/old, and PASS or FAIL within --tolerance; exits 1 on any FAIL. Run \`pnpm build\` in this tree first.

  --old REF              default: the commit before packages/provider-kit on the first-parent line
  --new REF              default: this tree as built (a REF is built in a worktree too)
  --records N            companies in the database, all of them delivered to S3 (default 1000000)
  --runs N               runs of each build (default 5)
  --screening N          sanctions names screened per run (default 1000)
  --requests N           small inline queries per run (default 3000), --concurrency at a time (default 8)
  --inline N             inline answers of 10,000 companies per run (default 10)
  --tolerance F          how much worse a median may be (default 0.05)
  --rebuild              build the worktrees again even if they hold a build
  --help                 this text`

function options() {
  try {
    const { values } = parseArgs({
      // pnpm 10 hands the `--` of `bench:compare -- --runs 3` on to the script.
      args: process.argv.slice(2).filter((arg) => arg !== '--'),
      options: {
        old: { type: 'string' },
        new: { type: 'string' },
        records: { type: 'string', default: '1000000' },
        runs: { type: 'string', default: '5' },
        screening: { type: 'string', default: '1000' },
        requests: { type: 'string', default: '3000' },
        concurrency: { type: 'string', default: '8' },
        inline: { type: 'string', default: '10' },
        tolerance: { type: 'string', default: '0.05' },
        rebuild: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    })
    if (values.help) {
      console.log(USAGE)
      process.exit(0)
    }
    const count = (name: keyof typeof values) => {
      const value = Number(values[name])
      if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`)
      return value
    }
    const tolerance = Number(values.tolerance)
    if (!(tolerance >= 0 && tolerance < 1)) throw new Error('--tolerance must be between 0 and 1')
    return {
      old: values.old,
      new: values.new,
      records: count('records'),
      runs: count('runs'),
      screening: count('screening'),
      requests: count('requests'),
      concurrency: count('concurrency'),
      inline: count('inline'),
      tolerance,
      rebuild: values.rebuild,
    }
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`)
    process.exit(2)
  }
}

async function main() {
  const settings = options()
  if (!findPostgresBinaries())
    throw new Error('PostgreSQL binaries not found: the companies live in PostgreSQL')
  const root = execFileSync('git', ['-C', __dirname, 'rev-parse', '--show-toplevel'], {
    encoding: 'utf8',
  }).trim()
  const oldRef = settings.old ?? commitBefore(root, 'packages/provider-kit')
  const describe = (ref: string) =>
    execFileSync('git', ['-C', root, 'log', '-1', '--format=%h %s', ref], { encoding: 'utf8' }).trim()
  const say = (text: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${text}`)
  say(`old: ${describe(oldRef)}`)
  say(`new: ${settings.new ? describe(settings.new) : `this tree (${describe('HEAD')}, as built)`}`)
  const builds = {
    old: buildCommit(root, oldRef, { rebuild: settings.rebuild }),
    new: settings.new ? buildCommit(root, settings.new, { rebuild: settings.rebuild }) : root,
  }
  say(`builds: old ${builds.old}, new ${builds.new}`)

  const dir = mkdtempSync(join(tmpdir(), 'pf-bench-compare-'))
  const postgres = await startPostgres({ settings: { shared_buffers: '256MB', max_wal_size: '4GB' } })
  const s3 = await startS3Server({ buckets: ['pf-deliveries'] })
  const sink = await startCallbackSink()
  try {
    const file = join(dir, 'registry-companies.jsonl')
    const samples = await writeRegistry(file, settings.records)
    say(`importing ${settings.records} companies`)
    await importCompanies({ databaseUrl: postgres.url, source: 'bench', files: [file] })
    const sdn = join(root, 'data', 'reference', 'ofac-sdn-2024')
    const plan: MeasurePlan = {
      records: settings.records,
      screeningNames: screeningQueries(loadOfacCsv(sdn), settings.screening, 5),
      smallQueryNames: samples.map((company) => company.name.split(/[\s&-]+/)[0] ?? company.name),
      requests: settings.requests,
      concurrency: settings.concurrency,
      inlineAnswers: settings.inline,
    }
    const runs: { old: ProviderMeasures[]; new: ProviderMeasures[] } = { old: [], new: [] }
    for (let round = 0; round < settings.runs; round += 1)
      // ABBA: old first in even rounds, new first in odd ones, so a drift of the machine hits both alike.
      for (const which of round % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const)) {
        const provider = await startServiceProcess({
          entry: join(builds[which], 'services', 'provider', 'dist', 'main.js'),
          cwd: builds[which],
          env: {
            PATH: process.env.PATH,
            PORT: '0',
            COMPANIES_DATABASE_URL: postgres.url,
            COMPANIES_DATABASE_TIMEOUT_MS: '120000',
            SANCTIONS_SOURCES: sdn,
            OUTBOUND_ALLOW_PRIVATE: 'true',
            OUTBOUND_TIMEOUT_MS: '120000',
            PROVIDER_MAX_DELIVERY_RECORDS: String(settings.records),
            S3_ENDPOINT: s3.endpoint,
            AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
            AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
          },
          readyMessage: 'provider listening',
          timeoutMs: 300_000,
        })
        try {
          const { url } = provider.readyLine as { url: string }
          const measured = await measureProvider(url, sink.url, plan)
          runs[which].push(measured)
          say(`run ${round + 1}/${settings.runs} ${which}: ${JSON.stringify(measured)}`)
        } finally {
          await provider.stop('SIGTERM', { killAfterMs: 30_000 })
        }
      }
    const verdicts = compareMedians(runs, settings.tolerance)
    console.log(
      `\nprovider: new against old, medians of ${settings.runs} runs each, ${settings.records} companies`,
    )
    console.table(verdicts)
    process.exitCode = verdicts.some((row) => row.verdict === 'FAIL') ? 1 : 0
  } finally {
    sink.close()
    await s3.stop()
    await postgres.destroy()
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
