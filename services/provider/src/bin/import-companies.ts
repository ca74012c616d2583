import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { importCompanies, type ImportProgress } from '../companies/import/import-companies'

const USAGE = `usage: import-companies [--database-url URL] [--source NAME] [--strict] FILE...
  Streams company files (the company-register ";" CSV, JSON Lines) into PostgreSQL and replaces the rows of
  the source atomically. --database-url defaults to COMPANIES_DATABASE_URL; --source to "default".`

/** Rejected rows printed one per line; past this, only counted. */
const MAX_PRINTED_REJECTIONS = 1000
/** A JSON progress line this often when stderr is not a terminal. */
const PROGRESS_EVERY_MS = 2000

/**
 * The command line. A `--` is ignored wherever it stands (pnpm 10 hands it on: `pnpm --filter @pf/provider
 * import-companies -- FILE`), and files are found from where pnpm was run (`INIT_CWD`), not the package folder
 * pnpm runs the script in.
 */
function readArguments() {
  const from = process.env.npm_lifecycle_event === 'import-companies' ? process.env.INIT_CWD : undefined
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== '--'),
    allowPositionals: true,
    options: {
      'database-url': { type: 'string' },
      source: { type: 'string', default: 'default' },
      strict: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  const databaseUrl = values['database-url'] ?? process.env.COMPANIES_DATABASE_URL
  return { ...values, databaseUrl, files: positionals.map((file) => resolve(from ?? process.cwd(), file)) }
}

/** A bar on a terminal; elsewhere one JSON line every `PROGRESS_EVERY_MS` (and at each phase). */
function progressPrinter(started: number) {
  let last = 0
  let phase = ''
  return (progress: ImportProgress) => {
    const now = Date.now()
    const seconds = (now - started) / 1000
    if (process.stderr.isTTY) {
      const done = Math.round(
        (20 * (progress.fileIndex - (progress.phase === 'copy' ? 1 : 0))) / progress.files,
      )
      const bar = `[${'#'.repeat(done)}${'.'.repeat(20 - done)}]`
      process.stderr.write(
        `\r${bar} ${progress.phase} ${progress.fileIndex}/${progress.files} ${progress.imported} rows, ${progress.rejected} rejected, ${Math.round(progress.imported / Math.max(seconds, 0.001))} rows/s `,
      )
      return
    }
    if (progress.phase === phase && now - last < PROGRESS_EVERY_MS) return
    last = now
    phase = progress.phase
    process.stderr.write(`${JSON.stringify({ ...progress, seconds: Math.round(seconds * 10) / 10 })}\n`)
  }
}

async function main(): Promise<number> {
  let args: ReturnType<typeof readArguments>
  try {
    args = readArguments()
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`)
    return 2
  }
  if (args.help) return (process.stdout.write(`${USAGE}\n`), 0)
  if (!args.databaseUrl || args.files.length === 0) {
    process.stderr.write(
      `${!args.databaseUrl ? 'no --database-url and no COMPANIES_DATABASE_URL' : 'no FILE'}\n${USAGE}\n`,
    )
    return 2
  }
  const started = Date.now()
  let printed = 0
  const outcome = await importCompanies({
    databaseUrl: args.databaseUrl,
    source: args.source,
    files: args.files,
    strict: args.strict,
    onProgress: progressPrinter(started),
    onReject: ({ file, line, reason }) => {
      printed += 1
      if (printed <= MAX_PRINTED_REJECTIONS) process.stderr.write(`rejected ${file}:${line}: ${reason}\n`)
    },
  })
  if (process.stderr.isTTY) process.stderr.write('\n')
  if (printed > MAX_PRINTED_REJECTIONS)
    process.stderr.write(`(${printed - MAX_PRINTED_REJECTIONS} more rejected rows not printed)\n`)
  if (outcome.left.length > 0)
    process.stderr.write(
      `replaced imports still read, dropped by the next import: ${outcome.left.join(', ')}\n`,
    )
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  process.stdout.write(
    `imported ${outcome.imported} companies (${outcome.rejected} rejected) in ${seconds} s\n`,
  )
  return 0
}

main().then(
  (code) => (process.exitCode = code),
  (error: Error) => {
    if (process.stderr.isTTY) process.stderr.write('\n')
    process.stderr.write(`import failed: ${error.message}\n`)
    process.exitCode = 1
  },
)
