import { DEMO_API_KEY } from '@pf/schemas'
import { describeFetchError } from '../platform/describe-fetch-error'
import { sendQuery, type QueryOutcome } from '../platform/send-query'
import { commandValues, namedValues } from './command-values'
import { formatResultsTable } from './format-results-table'
import type { CommandValues } from './parse-command'
import { CommandFailure, UsageError } from './usage'

const MECHANISMS = ['inline', 'pf_s3_sync', 'webhook'] as const

/** Why the query failed, or undefined: a non-2xx answer, a `failed` callback, a missing or forged signature. */
function failureOf({ response, callback }: QueryOutcome): string | undefined {
  if (response.status < 200 || response.status > 299)
    return `the provider answered ${response.status}${typeof response.body.error === 'string' ? `: ${response.body.error}` : ''}`
  if (!callback) return 'no callback came'
  if (!callback.signatureValid) return "the callback's X-PF-Signature does not verify"
  if (callback.body.status === 'failed')
    return `the callback says ${String(callback.body.status)}${typeof callback.body.error === 'string' ? `: ${callback.body.error}` : ''}`
  return undefined
}

/** The answer, the callback and the results, for a person at a terminal. */
function printOutcome(outcome: QueryOutcome, show: number) {
  const { status, body } = outcome.response
  const ok = status >= 200 && status < 300
  const lists = Array.isArray(body.lists)
    ? `  lists ${(body.lists as { name: string; sha256?: string }[]).map((l) => `${l.name}@${(l.sha256 ?? '').slice(0, 8)}`).join(',')}`
    : ''
  const summary = ok
    ? `recordCount ${String(body.recordCount)}  executionTimeMs ${String(body.executionTimeMs)}${lists}${
        body.delivery ? `  delivery ${JSON.stringify(body.delivery)}` : ''
      }`
    : JSON.stringify(body)
  console.log(`HTTP ${status}  ${summary}`)
  const callback = outcome.callback
  console.log(
    callback
      ? `callback  ${String(callback.body.status)}${typeof callback.body.error === 'string' ? `: ${callback.body.error}` : ''}  (signature ${callback.signatureValid ? 'valid' : 'INVALID'})`
      : 'callback  none',
  )
  if (outcome.results) {
    const total = typeof body.recordCount === 'number' ? body.recordCount : outcome.results.length
    console.log(formatResultsTable(outcome.results, { total, show }))
  }
  const delivered = body.delivery as { mechanism?: string; reference?: string } | undefined
  if (ok && !outcome.results && delivered?.mechanism === 'pf_s3_sync' && delivered.reference)
    console.log(s3Unread(delivered.reference))
}

/** Where a `pf_s3_sync` delivery went when pf-sim was not told how to read it, and how to. */
const s3Unread = (reference: string) =>
  `results  in ${reference}, not read: give --s3-endpoint URL (the provider's S3_ENDPOINT; keys from
  AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) to show them here, or: aws s3 cp ${reference} -`

/** `query companies|sanctions`: exit 0 when the provider answered 2xx and the callback says delivered, 1 otherwise. */
export async function queryCommand(args: string[], values: CommandValues) {
  const command = 'query'
  const [endpoint] = args
  if (endpoint !== 'companies' && endpoint !== 'sanctions')
    throw new UsageError(
      endpoint
        ? `unknown endpoint "${endpoint}": companies or sanctions`
        : 'which endpoint? companies or sanctions',
      command,
    )
  const read = commandValues(values, command)
  const mechanism = read.text('delivery') ?? 'inline'
  if (!(MECHANISMS as readonly string[]).includes(mechanism))
    throw new UsageError(`--delivery takes ${MECHANISMS.join(', ')} (got "${mechanism}")`, command)
  const providerUrl = read.url('provider') as string
  const s3Endpoint = read.url('s3-endpoint', false)
  const show = read.number('show', 20, { min: 0, integer: true })
  const parameters = namedValues(read.list('param'), 'param', command)
  let outcome: QueryOutcome
  try {
    outcome = await sendQuery({
      providerUrl,
      apiKey: read.text('api-key') ?? DEMO_API_KEY,
      endpoint,
      parameters,
      mechanism: mechanism as (typeof MECHANISMS)[number],
      s3Bucket: read.text('bucket'),
      s3KeyPrefix: read.text('prefix'),
      s3: s3Endpoint
        ? {
            endpoint: s3Endpoint,
            credentials: {
              accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'S3RVER',
              secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? 'S3RVER',
            },
          }
        : undefined,
    })
  } catch (error) {
    const { name, message } = error as Error
    if (name === 'TimeoutError' || message === 'fetch failed')
      throw new CommandFailure(`no answer from the provider at ${providerUrl}: ${describeFetchError(error)}`)
    throw new CommandFailure(`query failed: ${describeFetchError(error)}`)
  }
  if (read.flag('json')) console.log(JSON.stringify(outcome, null, 2))
  else printOutcome(outcome, show)
  const failure = failureOf(outcome)
  if (failure) throw new CommandFailure(`query failed: ${failure}`)
  return 0
}
