// `pnpm start`: the local sandbox. `pnpm start -- --idp tenant` (or realm,tenant) for the Auth0 emulator.
import { parseArgs } from 'node:util'
import { SANDBOX, SandboxError, startSandbox, type IdpStyle } from './start-sandbox'

async function main() {
  const { values } = parseArgs({ options: { idp: { type: 'string', default: 'realm' } } })
  const idp = (values.idp ?? 'realm').split(',').map((s) => s.trim()) as IdpStyle[]
  if (idp.some((style) => style !== 'realm' && style !== 'tenant'))
    throw new SandboxError('--idp takes realm, tenant or realm,tenant')
  // Show what the worker's handlers do, and every warning or error of any service.
  const onLog = (service: string, line: Record<string, unknown>) => {
    const level = Number(line.level ?? 30)
    if (service === 'webhook worker' ? line.webhookId !== undefined : level >= 40) {
      console.log(`[${service}] ${String(line.msg)}${line.webhookId ? ` ${String(line.webhookId)}` : ''}`)
    }
  }
  const sandbox = await startSandbox({ idp, redisUrl: process.env.REDIS_URL, onLog })
  const { urls } = sandbox
  const exchange = urls.exchanges.realm ?? urls.exchanges.tenant
  console.log(`
pf sandbox is running (Ctrl-C stops everything)

  provider          ${urls.provider}   API key ${SANDBOX.apiKey}
  webhook receiver  ${urls.webhook}   secret ${SANDBOX.webhookSecret}
  webhook worker    ${urls.worker}/metrics   (built-in handlers: events are logged)
${Object.entries(urls.exchanges)
  .map(([style, at]) => `  auth exchange     ${at}   ${style} style, application ${SANDBOX.applicationId}`)
  .join('\n')}
  S3 (s3rver)       ${urls.s3}   bucket ${SANDBOX.bucket}, credentials S3RVER / S3RVER
  marketplace JWT   ${urls.issuer}/.well-known/jwks.json
${urls.keycloak ? `  Keycloak (emul.)  ${urls.keycloak}   realm pf, admin / admin\n` : ''}${urls.auth0 ? `  Auth0 (emulated)  ${urls.auth0}\n` : ''}  Redis             ${urls.redis}

Try:
  pnpm pf-sim webhook send session.created --url ${urls.webhook} --secret ${SANDBOX.webhookSecret}
  pnpm pf-sim webhook send purchase.failed --url ${urls.webhook} --secret ${SANDBOX.webhookSecret} --set required=500
  pnpm pf-sim query sanctions --provider ${urls.provider} --param name="haddad dmitri"
  pnpm pf-sim query companies --provider ${urls.provider} --param name=acme --delivery pf_s3_sync --s3-endpoint ${urls.s3}
  TOKEN=$(pnpm -s pf-sim token --issuer ${urls.issuer} --user-id user_1 --org-id org_1 --application-id ${SANDBOX.applicationId} --email ada@example.com)
  curl -s -X POST ${exchange}/auth/exchange -H "Authorization: Bearer $TOKEN"
`)
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    console.log('stopping…')
    void sandbox.stop().then(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  process.stderr.write(`pnpm start: ${(error as Error).message}\n`)
  process.exit(1)
})
