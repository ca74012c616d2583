// The end-to-end check of the docker-compose stack (profile "e2e"): the platform's side, played by pf-sim's
// functions against the real services, MinIO, Redis and Keycloak. Exits non-zero on the first failure.
import { hostname } from 'node:os'
import { WEBHOOK_EVENT_KINDS } from '@pf/schemas'
import { createWebhookEvent, deliverWebhook, sendQuery } from '@pf/testkit/platform'

const env = (name: string) => {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is required`)
  return value
}
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`)
  if (!ok) process.exitCode = 1
}

async function main() {
  for (const kind of WEBHOOK_EVENT_KINDS) {
    const outcome = await deliverWebhook({
      url: env('WEBHOOK_URL'),
      secret: env('PF_WEBHOOK_SECRET'),
      body: createWebhookEvent(kind),
      timeScale: 1000,
    })
    check(outcome.state === 'delivered', `webhook ${kind} delivered`)
  }
  for (const mechanism of ['inline', 'pf_s3_sync', 'webhook'] as const) {
    const outcome = await sendQuery({
      providerUrl: env('PROVIDER_URL'),
      apiKey: env('PF_API_KEY'),
      endpoint: 'companies',
      parameters: { name: 'acme', limit: 5 },
      mechanism,
      listenHost: hostname(),
      s3: {
        endpoint: env('S3_ENDPOINT'),
        credentials: { accessKeyId: env('AWS_ACCESS_KEY_ID'), secretAccessKey: env('AWS_SECRET_ACCESS_KEY') },
      },
    })
    check(
      outcome.response.status === 200 &&
        outcome.callback?.signatureValid === true &&
        (outcome.results?.length ?? 0) > 0,
      `query delivered ${mechanism}, callback verified`,
    )
  }
  const minted = await fetch(`${env('ISSUER_URL')}/mint`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      userId: 'compose-user',
      orgId: 'org_1',
      applicationId: env('PF_APPLICATION_ID'),
      email: 'ada@example.com',
    }),
  })
  const { token } = (await minted.json()) as { token: string }
  const exchanged = await fetch(`${env('EXCHANGE_URL')}/auth/exchange`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  })
  check(exchanged.status === 200, `marketplace token exchanged at Keycloak (${exchanged.status})`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
