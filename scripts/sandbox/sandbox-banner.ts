import { relative } from 'node:path'
import type { BuildReport } from './build-if-changed'
import { redactSetting } from './passed-settings'
import { deadLetterAfterMs } from './sandbox-defaults'
import type { Sandbox, SANDBOX } from './start-sandbox'

export interface BannerOptions {
  /** Your handlers file (`--handlers`). */
  handlers?: string
  /** The sandbox's folder (logs/, s3/, its record while it runs). */
  dir?: string
  /** `SANDBOX_DIR` when it is not the default: the dead-letter command needs it too. */
  home?: string
  /** What `pnpm start` built before it started, and what it kept. */
  build?: BuildReport
  /** Paths are shown relative to it (the repository's root). */
  root?: string
}

/** `pnpm start`'s build, on one line: what was built and why, and what was kept. */
function buildLine({ built, kept }: BuildReport): string {
  if (built.length === 0) return 'up to date (pnpm build forces one)'
  const list = (items: BuildReport['built']) => items.map(({ name, why }) => `${name} (${why})`).join(', ')
  return `built ${list(built)}${kept.length ? `; kept ${list(kept)}` : ''}`
}

/** What `pnpm start` prints once everything answers: every address, credential and a command to try. */
export function sandboxBanner(
  { urls, redis, jobs, passed, lists }: Sandbox,
  settings: typeof SANDBOX,
  { handlers, dir, home, build, root = process.cwd() }: BannerOptions = {},
): string {
  const exchanges = Object.entries(urls.exchanges).map(
    ([style, at]) => `  auth exchange     ${at}   ${style} style, application ${settings.applicationId}`,
  )
  const exchange = urls.exchanges.realm ?? urls.exchanges.tenant
  const shown = (path: string) => (relative(root, path).startsWith('..') ? path : relative(root, path) || '.')
  const yours = Object.entries(passed).map(([name, value]) => `${name}=${redactSetting(name, value)}`)
  const retries = `${jobs.attempts} attempts, the wait doubling from ${jobs.backoffMs} ms (${jobs.yours.length ? `yours: ${jobs.yours.join(', ')}` : "the sandbox's WEBHOOK_JOB_ATTEMPTS / WEBHOOK_JOB_BACKOFF_MS; yours win"}): fail-me is a dead letter within ${Math.ceil(deadLetterAfterMs(jobs.attempts, jobs.backoffMs) / 1000)} s`
  const sandboxDir = home ? `SANDBOX_DIR=${shown(home)} ` : ''
  const queueEnv = `REDIS_URL=${redis.url} WEBHOOK_QUEUE_PREFIX='${redis.queuePrefix}'`
  return `
pf sandbox is running (Ctrl-C stops everything)

  provider          ${urls.provider}   API key ${settings.apiKey}, companies ${urls.companiesDatabase ? `in PostgreSQL ${urls.companiesDatabase} (private, the sample imported)` : 'in memory (the sample)'}
  sanctions lists   ${lists.map(({ name, records }) => `${name} ${records}`).join(', ')}
  webhook receiver  ${urls.webhook}   secret ${settings.webhookSecret}
  bull-board        ${urls.dashboard}   user any, password ${settings.dashboardToken} (read-only)
  webhook worker    ${urls.worker}/metrics   ${handlers ? `your handlers: ${handlers} (restarts when it changes)` : 'built-in handlers: events are logged'}; itemId fail-me fails
  retries           ${retries}
${exchanges.join('\n')}
  S3 (s3rver)       ${urls.s3}   bucket ${settings.bucket}, credentials S3RVER / S3RVER
  marketplace JWT   ${urls.issuer}/.well-known/jwks.json
${urls.keycloak ? `  Keycloak (emul.)  ${urls.keycloak}   realm pf, admin / admin\n` : ''}${urls.auth0 ? `  Auth0 (emulated)  ${urls.auth0}\n` : ''}  Redis             ${redis.url}   ${redis.isPrivate ? 'private redis-server, gone when the sandbox stops' : 'shared (REDIS_URL or the default)'}, queue prefix ${redis.queuePrefix}
${dir ? `  folder            ${shown(dir)}   every service's log in logs/<service>.log (--verbose shows them here), S3's objects in s3/\n` : ''}${urls.traces ? `  traces            on this terminal, a tree per request (an OTLP collector in this process, ${urls.traces})\n` : ''}  your settings     ${yours.length ? `${yours.join(' ')} (to every service)` : 'none passed on (pnpm start --help says which are)'}
${build ? `  build             ${buildLine(build)}\n` : ''}
Try:
  pnpm pf-sim webhook send session.created --url ${urls.webhook} --secret ${settings.webhookSecret}
  pnpm pf-sim webhook send purchase.failed --url ${urls.webhook} --secret ${settings.webhookSecret} --set required=500
  pnpm pf-sim webhook send purchase.completed --url ${urls.webhook} --secret ${settings.webhookSecret} --set itemId=fail-me
  ${sandboxDir}pnpm dead-letters list      # this sandbox's; with several running: ${queueEnv} pnpm dead-letters list
  pnpm pf-sim query sanctions --provider ${urls.provider} --param name="haddad dmitri"
  pnpm pf-sim query companies --provider ${urls.provider} --param name=acme --delivery pf_s3_sync --s3-endpoint ${urls.s3}
  TOKEN=$(pnpm -s pf-sim token --issuer ${urls.issuer} --user-id user_1 --org-id org_1 --application-id ${settings.applicationId} --email ada@example.com)
  curl -s -X POST ${exchange}/auth/exchange -H "Authorization: Bearer $TOKEN"
`
}
