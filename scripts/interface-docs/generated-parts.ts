// The parts of docs/ made from what the code holds: the services' OpenAPI documents (and through them the JSON
// Schemas of @pf/schemas), the spec's constants in @pf/schemas and @pf/signing, and the spec's test vectors.
import { PLATFORM_RETRY_SCHEDULE_MS, WEBHOOK_EVENT_KINDS, WEBHOOK_RESPONSE_BUDGET_MS } from '@pf/schemas'
import { CALLBACK_SIGNATURE_PREFIX, SIGNATURE_HEADER } from '@pf/signing'
import { loadTestVectors } from '@pf/testkit'
import { exchangeOpenApi } from '../../services/auth-exchange/src/openapi-document'
import { providerOpenApi } from '../../services/provider/src/openapi-document'
import { receiverOpenApi } from '../../services/webhook-receiver/src/receiver/openapi-document'
import { renderOperations, renderOpsEndpoints, renderSchemas } from './render-openapi'

/** The documents each service serves at `GET /openapi.json` (the receiver's for its default `WEBHOOK_PATH`). */
export const OPENAPI_DOCUMENTS = {
  provider: providerOpenApi,
  'webhook-receiver': receiverOpenApi('/webhooks/pf'),
  'auth-exchange': exchangeOpenApi,
}

/** 4 350 000 → `1 h 12 min 30 s`. */
const duration = (ms: number) =>
  [
    [Math.floor(ms / 3_600_000), 'h'],
    [Math.floor(ms / 60_000) % 60, 'min'],
    [Math.floor(ms / 1000) % 60, 's'],
  ]
    .filter(([count]) => count !== 0)
    .map(([count, unit]) => `${count} ${unit}`)
    .join(' ')

/** The platform's attempts at one webhook: when each comes, counted from the event. */
function retrySchedule(): string {
  let at = 0
  const rows = [
    `| 1 (first delivery) | at once | 0 |`,
    ...PLATFORM_RETRY_SCHEDULE_MS.map((delay, index) => {
      at += delay
      return `| ${index + 2} (retry ${index + 1}) | ${duration(delay)} after the previous one failed | ${duration(at)} |`
    }),
  ]
  return [
    `An attempt succeeds when the receiver answers 2xx within ${WEBHOOK_RESPONSE_BUDGET_MS / 1000} s.`,
    '',
    '| attempt | when | since the first, at the earliest |',
    '| --- | --- | --- |',
    ...rows,
    '',
    `After attempt ${PLATFORM_RETRY_SCHEDULE_MS.length + 1} fails, the delivery is \`failed\`: no more attempts; the developer portal offers a manual replay.`,
  ].join('\n')
}

/** One test vector of a signature scheme, as a reader can check it by hand. */
function signatureExample(kind: 'callback' | 'webhook'): string {
  const vector = loadTestVectors()[kind][0]!
  return [
    `Key (${kind === 'callback' ? '`callbackToken`' : 'the webhook secret'}): \`${vector.key}\`. Body, exactly these bytes (UTF-8):`,
    '',
    // Not `json`: prettier would format the bytes the signature is over.
    '```text',
    vector.body.trimEnd(),
    '```',
    '',
    `Header: \`${SIGNATURE_HEADER}: ${vector.value}\``,
    '',
    `Check it: \`printf '%s' '<the body>' | openssl dgst -sha256 -hmac '${vector.key}'\` prints \`${vector.value.replace(CALLBACK_SIGNATURE_PREFIX, '')}\`.`,
  ].join('\n')
}

function derivedPasswords(): string {
  return [
    '| marketplace `userId` | client secret | realm style (64 hex) | tenant style (`Pf!` + 29 hex) |',
    '| --- | --- | --- | --- |',
    ...loadTestVectors().derivedPassword.map(
      (vector) =>
        `| \`${vector.userId}\` | \`${vector.clientSecret}\` | \`${vector.realm}\` | \`${vector.tenant}\` |`,
    ),
  ].join('\n')
}

function eventKinds(): string {
  return [
    '| event | its `data` |',
    '| --- | --- |',
    ...WEBHOOK_EVENT_KINDS.map((kind) => {
      const name = `${kind.replace('.', '_')}_data`
      return `| \`${kind}\` | [${name}](#${name}) |`
    }),
  ].join('\n')
}

/** Each generated part of docs/, by the name its marks carry. */
export function generatedParts(): Record<string, string> {
  const parts: Record<string, string> = {
    ops: renderOpsEndpoints(),
    'retry-schedule': retrySchedule(),
    'signature:callback': signatureExample('callback'),
    'signature:webhook': signatureExample('webhook'),
    'derived-password': derivedPasswords(),
    'event-kinds': eventKinds(),
  }
  for (const [service, document] of Object.entries(OPENAPI_DOCUMENTS)) {
    parts[`operations:${service}`] = renderOperations(document)
    parts[`schemas:${service}`] = renderSchemas(document)
  }
  return parts
}
