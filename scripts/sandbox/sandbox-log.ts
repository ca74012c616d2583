import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'

type LogLine = Record<string, unknown>

/** The fields of a handled event worth a glance, in this order, when the line has them. */
const KEY_FIELDS = [
  'sessionId',
  'userId',
  'orgId',
  'purchaseId',
  'itemId',
  'tokenCost',
  'reason',
  'errorCode',
  'required',
  'newExpiresAt',
]

const errorOf = (line: LogLine) => {
  const err = (line.err ?? line.error) as { message?: unknown } | string | undefined
  return typeof err === 'string' ? err : typeof err?.message === 'string' ? err.message : undefined
}

/**
 * What a person at the sandbox's terminal wants to see of a log line, or undefined: the worker's handled events
 * with their key fields, every webhook the receiver refused (status and reason), every failed query with its
 * cause, and anything else at warn or above.
 */
export function summarizeLogLine(service: string, line: LogLine): string | undefined {
  const level = Number(line.level ?? 30)
  const msg = String(line.msg ?? '')
  const error = errorOf(line)
  if (service === 'webhook worker' && line.webhookId !== undefined && level < 40) {
    const fields = KEY_FIELDS.filter((field) => line[field] !== undefined).map(
      (f) => `${f}=${String(line[f])}`,
    )
    return `[${service}] ${msg} ${String(line.webhookId)}${fields.length ? `  ${fields.join(' ')}` : ''}`
  }
  if (msg === 'webhook refused')
    return `[${service}] refused ${String(line.status)} ${String(line.reason ?? '')}: ${String(line.error ?? '')}`
  if (service === 'provider' && msg === 'query failed')
    return `[${service}] query ${String(line.queryId)} failed: delivery failed: ${error ?? 'see the log'}`
  if (level >= 40) {
    const job = line.jobId !== undefined ? `  job ${String(line.jobId)}, attempt ${String(line.attempt)}` : ''
    return `[${service}] ${msg}${line.webhookId ? ` ${String(line.webhookId)}` : ''}${job}${error ? `: ${error}` : ''}`
  }
  return undefined
}

/** One line of every log, for `--verbose`: the service, the level's name, the message and its fields. */
function verboseLine(service: string, line: LogLine): string {
  const { level, msg, time: _time, pid: _pid, hostname: _host, name: _name, ...fields } = line
  const names: Record<number, string> = {
    10: 'trace',
    20: 'debug',
    30: 'info',
    40: 'warn',
    50: 'error',
    60: 'fatal',
  }
  const rest = Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : ''
  return `[${service}] ${names[Number(level)] ?? 'info'} ${String(msg ?? '')}${rest}`
}

export interface SandboxLogOptions {
  /** `.sandbox/logs`: every service's lines, always, one file per service (`webhook-worker.log`). */
  dir: string
  /** Every line on the terminal, not only the summary. */
  verbose?: boolean
  print?: (text: string) => void
}

/** The sandbox's `onLog`: every line to its service's file, and to the terminal what `summarizeLogLine` keeps. */
export function createSandboxLog({
  dir,
  verbose = false,
  print = (text) => console.log(text),
}: SandboxLogOptions) {
  mkdirSync(dir, { recursive: true })
  const fileOf = (service: string) =>
    join(dir, `${service.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '')}.log`)
  return (service: string, line: LogLine) => {
    appendFileSync(fileOf(service), `${JSON.stringify(line)}\n`)
    const shown = verbose ? verboseLine(service, line) : summarizeLogLine(service, line)
    if (shown !== undefined) print(shown)
  }
}
