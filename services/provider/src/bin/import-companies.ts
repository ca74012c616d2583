import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { importCompanies, type ImportProgress } from '../companies/import/import-companies'
import { DEFAULT_MAX_LINE_BYTES, readEncoding } from '../companies/import/read-bounded-lines'
import { DEFAULT_MAX_REJECTED, ImportRefusedError } from '../companies/import/whole-import-rule'

const USAGE = `usage: import-companies [--database-url URL] [--source NAME] [--max-rejected SHARE | --strict]
                        [--max-line-bytes N] [--encoding NAME] FILE...
  Streams company files (the company-register ";" CSV, JSON Lines) into PostgreSQL and replaces the rows of
  the source atomically, and only with a whole import: it refuses (exit 1, the source unchanged) when no
  company was read, or when the input lines inside refused records are more than SHARE of all input lines.
  --database-url URL    default COMPANIES_DATABASE_URL
  --source NAME         the rows it replaces (default "default"); other sources are untouched
  --max-rejected SHARE  0-1, default ${DEFAULT_MAX_REJECTED}; --strict is --max-rejected 0 (stops at the first)
  --max-line-bytes N    a longer line (or CSV record) is refused, never read whole (default ${DEFAULT_MAX_LINE_BYTES})
  --encoding NAME       the files' encoding when not UTF-8 (windows-1252, iso-8859-2, shift_jis, ...);
                        without it a line that is not UTF-8 is refused
  SIGINT or SIGTERM aborts the import, the source unchanged (a second one ends the process at once).
  Exit codes: 0 imported, 1 refused, failed or interrupted, 2 usage.`

class UsageError extends Error {}

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
      'max-rejected': { type: 'string' },
      'max-line-bytes': { type: 'string' },
      encoding: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  const databaseUrl = values['database-url'] ?? process.env.COMPANIES_DATABASE_URL
  const files = positionals.map((file) => resolve(from ?? process.cwd(), file))
  return { ...values, databaseUrl, files, ...limits(values) }
}

/** The import's bounds from the flags: every value checked, `--strict` and `--max-rejected` not both. */
function limits(values: {
  strict: boolean
  'max-rejected'?: string
  'max-line-bytes'?: string
  encoding?: string
}) {
  if (values.strict && values['max-rejected'] !== undefined)
    throw new UsageError('--strict is --max-rejected 0: give one of them')
  const share = values['max-rejected'] === undefined ? DEFAULT_MAX_REJECTED : Number(values['max-rejected'])
  if (!(share >= 0 && share <= 1)) throw new UsageError('--max-rejected: a share of the input lines, 0 to 1')
  const bytes =
    values['max-line-bytes'] === undefined ? DEFAULT_MAX_LINE_BYTES : Number(values['max-line-bytes'])
  if (!Number.isInteger(bytes) || bytes < 1024 || bytes > 256 * 1024 * 1024)
    throw new UsageError('--max-line-bytes: a whole number of bytes, 1024 to 268435456')
  const encoding = values.encoding === undefined ? undefined : readEncoding(values.encoding)
  if (encoding && 'problem' in encoding) throw new UsageError(encoding.problem)
  return { maxRejected: values.strict ? 0 : share, maxLineBytes: bytes, encoding: encoding?.encoding }
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

/**
 * SIGINT and SIGTERM abort the import (its table dropped, the source unchanged) with a message; a second
 * signal ends the process at once (the table is then dropped by the next import: `dropUnusedImports`).
 */
function abortOnSignals(): AbortSignal {
  const controller = new AbortController()
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(1)
    process.stderr.write(`\n${signal}: aborting the import; the source keeps its rows\n`)
    controller.abort(new Error(`interrupted by ${signal}`))
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  return controller.signal
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
  const signal = abortOnSignals()
  const started = Date.now()
  let printed = 0
  let outcome: Awaited<ReturnType<typeof importCompanies>>
  try {
    outcome = await importCompanies({
      databaseUrl: args.databaseUrl,
      source: args.source,
      files: args.files,
      maxRejected: args.maxRejected,
      maxLineBytes: args.maxLineBytes,
      encoding: args.encoding,
      signal,
      onProgress: progressPrinter(started),
      onReject: ({ file, line, lines, reason }) => {
        printed += 1
        if (printed <= MAX_PRINTED_REJECTIONS)
          process.stderr.write(`rejected ${file}:${line}: ${reason}${lines > 1 ? ` (${lines} lines)` : ''}\n`)
      },
    })
  } catch (error) {
    if (!signal.aborted) throw error
    process.stderr.write(
      `import ${(signal.reason as Error).message}: nothing imported, the source keeps its rows\n`,
    )
    return 1
  } finally {
    if (process.stderr.isTTY) process.stderr.write('\n')
    if (printed > MAX_PRINTED_REJECTIONS)
      process.stderr.write(`(${printed - MAX_PRINTED_REJECTIONS} more rejected records not printed)\n`)
  }
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
    const prefix = error instanceof ImportRefusedError ? 'import refused' : 'import failed'
    process.stderr.write(`${prefix}: ${error.message}\n`)
    process.exitCode = 1
  },
)
