#!/usr/bin/env node
// pf-sim: the platform's side of every interface, from a terminal. `pf-sim help` lists the commands.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { DEMO_API_KEY } from '@pf/schemas'
import { deliverWebhook, type DeliveryAttempt } from '../platform/deliver-webhook'
import { createWebhookEvent } from '../platform/sample-events'
import { sendQuery } from '../platform/send-query'
import { startMarketplaceIssuer } from '../platform/start-marketplace-issuer'

const HELP = `pf-sim — the marketplace platform, simulated

  pf-sim webhook send <kind> --url URL --secret S [--set field=value …] [--time-scale N]
        a signed webhook of a kind (session.created, session.extended, session.ended, purchase.completed,
        purchase.failed) with realistic data; retried like the platform (30 s, 2 min, 10 min, 1 h, 6 h)
  pf-sim webhook raw --url URL --secret S --body TEXT [--signature HEX]
        any body (unknown kinds, bad JSON), signed unless --signature is given
  pf-sim webhook replay <webhookId> --url URL --secret S [--time-scale N]
        re-sends a webhook sent before, same id and body (as the portal's manual replay)
  pf-sim query <companies|sanctions> --provider URL [--api-key K] [--param name=value …]
        [--delivery inline|pf_s3_sync|webhook] [--bucket B] [--prefix P] [--s3-endpoint URL]
        a query envelope with a callback listener; checks the callback signature; prints callback and results
  pf-sim issuer [--port 4200] [--host 0.0.0.0] [--iss URL]
        a marketplace JWT issuer: JWKS at /.well-known/jwks.json, tokens from POST /mint
  pf-sim token --issuer URL --user-id U --org-id O --application-id A [--email E] [--expires-in SECONDS]
        a marketplace JWT from a running issuer

  --json prints JSON for scripts. Sent webhooks are kept in $PF_SIM_HOME (default ./.pf-sim) for replay.`

class UsageError extends Error {}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    url: { type: 'string' },
    secret: { type: 'string' },
    set: { type: 'string', multiple: true },
    'time-scale': { type: 'string' },
    body: { type: 'string' },
    signature: { type: 'string' },
    provider: { type: 'string' },
    'api-key': { type: 'string' },
    param: { type: 'string', multiple: true },
    delivery: { type: 'string' },
    bucket: { type: 'string' },
    prefix: { type: 'string' },
    's3-endpoint': { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    iss: { type: 'string' },
    issuer: { type: 'string' },
    'user-id': { type: 'string' },
    'org-id': { type: 'string' },
    'application-id': { type: 'string' },
    email: { type: 'string' },
    'expires-in': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
})

const need = (name: keyof typeof values) => {
  const value = values[name]
  if (typeof value !== 'string' || !value) throw new UsageError(`--${name} is required`)
  return value
}
/** `field=value` pairs; values that parse as JSON (numbers, booleans) are taken as such. */
const pairs = (list: string[] | undefined) =>
  Object.fromEntries(
    (list ?? []).map((pair) => {
      const at = pair.indexOf('=')
      if (at < 1) throw new UsageError(`expected name=value, got "${pair}"`)
      const raw = pair.slice(at + 1)
      let value: unknown = raw
      try {
        value = JSON.parse(raw)
      } catch {
        // a plain string
      }
      return [pair.slice(0, at), value]
    }),
  )
const print = (human: () => void, data: unknown) =>
  values.json ? console.log(JSON.stringify(data, null, 2)) : human()
const home = process.env.PF_SIM_HOME ?? '.pf-sim'
const showAttempt = (a: DeliveryAttempt) =>
  values.json ||
  console.log(
    `attempt ${a.attempt}  ${a.status ?? '---'}  ${a.state}${a.error ? `  (${a.error})` : ''}${a.nextRetryInMs !== undefined ? `  next try in ${a.nextRetryInMs} ms` : ''}`,
  )

async function sendWebhook(body: string, webhookId: string | undefined, signature?: string) {
  const url = need('url')
  if (webhookId) {
    mkdirSync(home, { recursive: true })
    appendFileSync(join(home, 'webhooks.jsonl'), `${JSON.stringify({ webhookId, url, body })}\n`)
  }
  if (!values.json) console.log(`POST ${url}${webhookId ? `  webhookId ${webhookId}` : ''}`)
  const outcome = await deliverWebhook({
    url,
    secret: need('secret'),
    body,
    signature,
    timeScale: Number(values['time-scale'] ?? 1),
    onAttempt: showAttempt,
  })
  print(() => console.log(outcome.state), { webhookId, ...outcome })
  if (outcome.state !== 'delivered') process.exitCode = 1
}

/** `webhook replay <webhookId>`: the same id and bytes again, from what `webhook send` kept. */
async function replayWebhook(webhookId: string | undefined) {
  if (!webhookId) throw new UsageError('which webhookId?')
  const sent = readFileSync(join(home, 'webhooks.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { webhookId: string; body: string })
  const original = sent.reverse().find((entry) => entry.webhookId === webhookId)
  if (!original) throw new UsageError(`no webhook ${webhookId} in ${join(home, 'webhooks.jsonl')}`)
  return sendWebhook(original.body, undefined)
}

/** `query companies|sanctions`: the envelope, the answer, the callback and its signature, the results. */
async function runQuery(endpoint: string | undefined) {
  if (endpoint !== 'companies' && endpoint !== 'sanctions')
    throw new UsageError('pf-sim query companies|sanctions …')
  const mechanism = (values.delivery ?? 'inline') as 'inline' | 'pf_s3_sync' | 'webhook'
  const s3Endpoint = values['s3-endpoint']
  const outcome = await sendQuery({
    providerUrl: need('provider'),
    apiKey: values['api-key'] ?? DEMO_API_KEY,
    endpoint,
    parameters: pairs(values.param),
    mechanism,
    s3Bucket: values.bucket,
    s3KeyPrefix: values.prefix,
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
  print(() => {
    console.log(
      `HTTP ${outcome.response.status}`,
      JSON.stringify({ ...outcome.response.body, results: undefined }),
    )
    console.log(
      outcome.callback
        ? `callback: ${JSON.stringify(outcome.callback.body)}  signature ${outcome.callback.signatureValid ? 'valid' : 'INVALID'}`
        : 'callback: none',
    )
    if (outcome.results) console.table(outcome.results.slice(0, 20))
  }, outcome)
  if (outcome.callback && !outcome.callback.signatureValid) process.exitCode = 1
}

/** `issuer`: a marketplace JWT issuer (JWKS + POST /mint) until SIGINT or SIGTERM. */
async function runIssuer() {
  const issuer = await startMarketplaceIssuer({
    port: Number(values.port ?? 4200),
    host: values.host,
    issuer: values.iss,
  })
  print(
    () =>
      console.log(
        `marketplace issuer: iss ${issuer.issuer}\n  JWKS  ${issuer.jwksUrl}\n  mint  POST ${issuer.url}/mint  (or: pf-sim token --issuer ${issuer.url} …)`,
      ),
    { issuer: issuer.issuer, jwksUrl: issuer.jwksUrl },
  )
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void issuer.stop().then(() => process.exit(0)))
}

/** `token`: a marketplace JWT minted by a running `issuer`. */
async function mintToken() {
  const res = await fetch(`${need('issuer').replace(/\/+$/, '')}/mint`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      userId: need('user-id'),
      orgId: need('org-id'),
      applicationId: need('application-id'),
      email: values.email,
      expiresInSec: values['expires-in'] ? Number(values['expires-in']) : undefined,
    }),
  })
  const answer = (await res.json()) as { token?: string; error?: string }
  if (!answer.token) throw new Error(answer.error ?? `issuer answered ${res.status}`)
  print(() => console.log(answer.token), answer)
}

async function main() {
  const [command, sub, argument] = positionals
  if (command === 'webhook' && sub === 'send') {
    if (!argument) throw new UsageError('which kind? e.g. pf-sim webhook send session.created')
    const event = createWebhookEvent(argument, { data: pairs(values.set) })
    return sendWebhook(JSON.stringify(event), event.webhookId)
  }
  if (command === 'webhook' && sub === 'raw') return sendWebhook(need('body'), undefined, values.signature)
  if (command === 'webhook' && sub === 'replay') return replayWebhook(argument)
  if (command === 'query') return runQuery(sub)
  if (command === 'issuer') return runIssuer()
  if (command === 'token') return mintToken()
  if (!command || command === 'help') return console.log(HELP)
  throw new UsageError(`unknown command: ${positionals.join(' ')}`)
}

main().catch((error: unknown) => {
  process.stderr.write(
    `pf-sim: ${(error as Error).message}${error instanceof UsageError ? '\n\n' + HELP : ''}\n`,
  )
  process.exit(2)
})
