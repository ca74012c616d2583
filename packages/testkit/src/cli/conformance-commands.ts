import { readFileSync } from 'node:fs'
import { formatConformanceReport, type ConformanceReport } from '../conformance/conformance-report'
import { endpointPath, runProviderConformance } from '../conformance/run-provider-conformance'
import { runReceiverConformance } from '../conformance/run-receiver-conformance'
import { commandValues } from './command-values'
import type { CommandValues } from './parse-command'
import { CommandFailure, UsageError, type CommandName } from './usage'

/** The report on stdout (or as JSON); exit 1, with the failed rules named on stderr, when any rule failed. */
function report(result: ConformanceReport, json: boolean, suite: string) {
  console.log(json ? JSON.stringify(result, null, 2) : formatConformanceReport(result))
  const failed = result.results.filter((r) => r.outcome === 'FAIL').map((r) => r.rule)
  if (failed.length > 0)
    throw new CommandFailure(
      `${suite}: ${failed.length} rule${failed.length === 1 ? '' : 's'} failed: ${failed.join(', ')}`,
    )
  return 0
}

/** A URL the suite listens at: http, with its port written (the provider must reach a port the suite can bind). */
function listenUrl(read: ReturnType<typeof commandValues>, name: string, command: CommandName) {
  const value = read.url(name, false)
  if (value === undefined) return undefined
  const url = new URL(value)
  if (url.protocol !== 'http:' || !url.port)
    throw new UsageError(`--${name} takes http://HOST:PORT, the port written (got "${value}")`, command)
  return value
}

/** `conformance provider`: interface A's rules against a running provider. */
export async function conformanceProvider(_args: string[], values: CommandValues) {
  const command = 'conformance provider'
  const read = commandValues(values, command)
  const url = read.url('url') as string
  const apiKey = read.need('api-key')
  const endpoint = read.need('endpoint')
  if (!/^(\/\S*|[A-Za-z0-9_.-]+)$/.test(endpoint))
    throw new UsageError(
      `--endpoint takes a name (companies) or a path (/api/search/companies), got "${endpoint}"`,
      command,
    )
  let parameters: Record<string, unknown> = {}
  const raw = read.text('parameters')
  if (raw !== undefined) {
    try {
      parameters = JSON.parse(raw) as Record<string, unknown>
    } catch {
      throw new UsageError(`--parameters takes a JSON object (got "${raw}")`, command)
    }
    if (!parameters || typeof parameters !== 'object' || Array.isArray(parameters))
      throw new UsageError(`--parameters takes a JSON object (got "${raw}")`, command)
  }
  if (/(^|\/)sanctions$/.test(endpointPath(endpoint)) && !parameters.name)
    throw new UsageError(
      `the sanctions endpoint needs a name: --parameters '{"name":"kim jong un"}'`,
      command,
    )
  const result = await runProviderConformance({
    url,
    apiKey,
    endpoint,
    parameters,
    callbackUrl: listenUrl(read, 'callback-url', command),
    s3Endpoint: listenUrl(read, 's3-endpoint', command),
    defaultBucket: read.text('default-bucket'),
    bucket: read.text('bucket'),
    bindHost: read.text('bind'),
  }).catch((error: Error & { code?: string }) => {
    // The listener's own port: busy, or not this machine's to bind.
    throw new CommandFailure(
      `conformance provider: the suite could not listen: ${error.code ?? ''} ${error.message}`.trim(),
    )
  })
  return report(result, read.flag('json'), command)
}

/** `conformance receiver`: interface B's rules against a running receiver. */
export async function conformanceReceiver(_args: string[], values: CommandValues) {
  const command = 'conformance receiver'
  const read = commandValues(values, command)
  const url = read.url('url') as string
  const secret = read.need('secret')
  const caFile = read.text('ca')
  let ca: Buffer | undefined
  if (caFile !== undefined) {
    try {
      ca = readFileSync(caFile)
    } catch {
      throw new UsageError(`--ca names a PEM file that cannot be read: ${caFile}`, command)
    }
  }
  return report(await runReceiverConformance({ url, secret, ca }), read.flag('json'), command)
}
