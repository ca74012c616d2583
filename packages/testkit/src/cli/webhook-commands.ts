import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { WEBHOOK_EVENT_KINDS } from '@pf/schemas'
import { deliverWebhook, WEBHOOK_RETRY_SCHEDULE_MS, type DeliveryAttempt } from '../platform/deliver-webhook'
import { createWebhookEvent, sampleEventData, type SampleEventKind } from '../platform/sample-events'
import { commandValues, namedValues } from './command-values'
import type { CommandValues } from './parse-command'
import { UsageError, type CommandName } from './usage'

const home = () => process.env.PF_SIM_HOME ?? '.pf-sim'
const PLATFORM_ATTEMPTS = WEBHOOK_RETRY_SCHEDULE_MS.length + 1

/** How many tries: one by default (`--no-retry`), `--attempts N`, or the platform's six (`--schedule platform`). */
function attemptsOf(read: ReturnType<typeof commandValues>, command: CommandName): number {
  const schedule = read.text('schedule')
  if (schedule !== undefined && schedule !== 'platform')
    throw new UsageError(`--schedule takes "platform" (got "${schedule}")`, command)
  const fallback = schedule === 'platform' ? PLATFORM_ATTEMPTS : 1
  const attempts = read.number('attempts', fallback, { min: 1, max: PLATFORM_ATTEMPTS, integer: true })
  if (read.flag('no-retry') && (attempts > 1 || schedule))
    throw new UsageError('--no-retry cannot go with --attempts or --schedule', command)
  return attempts
}

const describeAttempt = (a: DeliveryAttempt) =>
  [
    `attempt ${a.attempt}`,
    a.status ?? '---',
    a.state,
    a.error ?? a.body,
    a.nextRetryInMs !== undefined ? `next try in ${a.nextRetryInMs} ms` : undefined,
  ]
    .filter((part) => part !== undefined && part !== '')
    .join('  ')

/** Sends `body` and shows every attempt; exit 0 when the last answer was 2xx, 1 otherwise. */
async function send(
  values: CommandValues,
  command: CommandName,
  body: string,
  webhookId?: string,
  signature?: string,
) {
  const read = commandValues(values, command)
  const url = read.url('url') as string
  const secret = read.need('secret')
  const attempts = attemptsOf(read, command)
  const timeScale = read.number('time-scale', 1, { min: 0.000001 })
  const json = read.flag('json')
  if (webhookId) {
    mkdirSync(home(), { recursive: true })
    appendFileSync(join(home(), 'webhooks.jsonl'), `${JSON.stringify({ webhookId, url, body })}\n`)
  }
  if (!json) console.log(`POST ${url}${webhookId ? `  webhookId ${webhookId}` : ''}`)
  const outcome = await deliverWebhook({
    url,
    secret,
    body,
    signature,
    attempts,
    timeScale,
    onAttempt: (a) => json || console.log(describeAttempt(a)),
  })
  const last = outcome.attempts.at(-1) as DeliveryAttempt
  if (json) console.log(JSON.stringify({ webhookId, ...outcome }, null, 2))
  else if (outcome.state === 'delivered') console.log('delivered')
  if (outcome.state === 'delivered') return 0
  if (!json)
    process.stderr.write(
      `pf-sim: not delivered: ${last.error ? `${last.error} (is the receiver running at ${url}?)` : `the receiver answered ${last.status}`}\n`,
    )
  return 1
}

/** `webhook send <kind>`: a real event of one of the five kinds, its data's fields overridden by `--set`. */
export function webhookSend(args: string[], values: CommandValues) {
  const command = 'webhook send'
  const [kind] = args
  if (!kind) throw new UsageError(`which kind? ${WEBHOOK_EVENT_KINDS.join(', ')}`, command)
  if (!(WEBHOOK_EVENT_KINDS as readonly string[]).includes(kind))
    throw new UsageError(
      `unknown kind "${kind}": ${WEBHOOK_EVENT_KINDS.join(', ')} (any other body: pf-sim webhook raw --body …)`,
      command,
    )
  const data = namedValues(commandValues(values, command).list('set'), 'set', command)
  const fields = Object.keys(sampleEventData(kind as SampleEventKind))
  const unknown = Object.keys(data).filter((field) => !fields.includes(field))
  if (unknown.length > 0)
    throw new UsageError(
      `${kind} has no field ${unknown.join(', ')}; its fields: ${fields.join(', ')}`,
      command,
    )
  const event = createWebhookEvent(kind, { data })
  return send(values, command, JSON.stringify(event), event.webhookId)
}

/** `webhook raw`: any body, signed unless `--signature` is given. */
export function webhookRaw(_args: string[], values: CommandValues) {
  const read = commandValues(values, 'webhook raw')
  return send(values, 'webhook raw', read.need('body'), undefined, read.text('signature'))
}

/** `webhook replay <webhookId>`: the same id and bytes again, from what `webhook send` kept. */
export function webhookReplay(args: string[], values: CommandValues) {
  const command = 'webhook replay'
  const [webhookId] = args
  if (!webhookId) throw new UsageError('which webhookId? (pf-sim webhook send prints it)', command)
  const file = join(home(), 'webhooks.jsonl')
  if (!existsSync(file))
    throw new UsageError(`no webhook was sent from here: ${file} does not exist`, command)
  const original = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { webhookId: string; body: string })
    .reverse()
    .find((entry) => entry.webhookId === webhookId)
  if (!original) throw new UsageError(`no webhook ${webhookId} in ${file}`, command)
  return send(values, command, original.body)
}
