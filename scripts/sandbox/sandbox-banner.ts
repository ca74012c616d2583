import type { Sandbox, SANDBOX } from './start-sandbox'

/** What `pnpm start` prints once everything answers: every address, credential and a command to try. */
export function sandboxBanner(
  { urls, redis }: Sandbox,
  settings: typeof SANDBOX,
  { handlers, logDir }: { handlers?: string; logDir?: string } = {},
): string {
  const exchanges = Object.entries(urls.exchanges).map(
    ([style, at]) => `  auth exchange     ${at}   ${style} style, application ${settings.applicationId}`,
  )
  const exchange = urls.exchanges.realm ?? urls.exchanges.tenant
  const queueEnv = `REDIS_URL=${redis.url} WEBHOOK_QUEUE_PREFIX='${redis.queuePrefix}'`
  return `
pf sandbox is running (Ctrl-C stops everything)

  provider          ${urls.provider}   API key ${settings.apiKey}, companies ${urls.companiesDatabase ? `in PostgreSQL ${urls.companiesDatabase} (private, the sample imported)` : 'in memory (the sample)'}
  webhook receiver  ${urls.webhook}   secret ${settings.webhookSecret}
  bull-board        ${urls.dashboard}   user any, password ${settings.dashboardToken} (read-only)
  webhook worker    ${urls.worker}/metrics   ${handlers ? `your handlers: ${handlers} (restarts when it changes)` : 'built-in handlers: events are logged'}; itemId fail-me fails
${exchanges.join('\n')}
  S3 (s3rver)       ${urls.s3}   bucket ${settings.bucket}, credentials S3RVER / S3RVER
  marketplace JWT   ${urls.issuer}/.well-known/jwks.json
${urls.keycloak ? `  Keycloak (emul.)  ${urls.keycloak}   realm pf, admin / admin\n` : ''}${urls.auth0 ? `  Auth0 (emulated)  ${urls.auth0}\n` : ''}  Redis             ${redis.url}   ${redis.isPrivate ? 'private redis-server, gone when the sandbox stops' : 'shared (REDIS_URL or the default)'}, queue prefix ${redis.queuePrefix}

${
  logDir
    ? `Every service's log: ${logDir}/<service>.log (--verbose shows them here)

`
    : ''
}Try:
  pnpm pf-sim webhook send session.created --url ${urls.webhook} --secret ${settings.webhookSecret}
  pnpm pf-sim webhook send purchase.failed --url ${urls.webhook} --secret ${settings.webhookSecret} --set required=500
  pnpm pf-sim webhook send purchase.completed --url ${urls.webhook} --secret ${settings.webhookSecret} --set itemId=fail-me
  ${queueEnv} pnpm --filter @pf/webhook-receiver dead-letters list
  pnpm pf-sim query sanctions --provider ${urls.provider} --param name="haddad dmitri"
  pnpm pf-sim query companies --provider ${urls.provider} --param name=acme --delivery pf_s3_sync --s3-endpoint ${urls.s3}
  TOKEN=$(pnpm -s pf-sim token --issuer ${urls.issuer} --user-id user_1 --org-id org_1 --application-id ${settings.applicationId} --email ada@example.com)
  curl -s -X POST ${exchange}/auth/exchange -H "Authorization: Bearer $TOKEN"
`
}
