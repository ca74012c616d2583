import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createCleanup, startServiceProcess } from '@pf/testkit'
import { startKeycloakEmulator } from '@pf/testkit/emulators'
import { startMarketplaceIssuer } from '@pf/testkit/platform'

const main = join(__dirname, '..', 'dist', 'main.js')
beforeAll(() => {
  if (!existsSync(main)) throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
})

// What a test starts is stopped after it, even when the exchange process fails to start after its emulators.
const cleanup = createCleanup(afterEach)

/** The built exchange against a Keycloak emulator and a marketplace issuer, configured from its environment. */
async function startRealmExchange(env: Record<string, string> = {}) {
  const keycloak = await startKeycloakEmulator({
    clients: [{ clientId: 'pf-exchange', secret: 's3cret' }],
    unmanagedAttributes: true,
  })
  cleanup.add(keycloak, (k) => k.stop())
  const issuer = cleanup.add(await startMarketplaceIssuer(), (i) => i.stop())
  const service = await startServiceProcess({
    entry: main,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      IDP_STYLE: 'realm',
      PF_APPLICATION_ID: 'app_1',
      MARKETPLACE_JWKS_URL: issuer.jwksUrl,
      MARKETPLACE_ISSUER: issuer.issuer,
      REALM_SERVER_URL: keycloak.url,
      REALM_NAME: 'pf',
      REALM_CLIENT_ID: 'pf-exchange',
      REALM_CLIENT_SECRET: 's3cret',
      REALM_ADMIN_USER: 'admin',
      REALM_ADMIN_PASSWORD: 'admin',
      ...env,
    },
    readyMessage: 'auth exchange listening',
  })
  cleanup.add(service, (s) => s.stop('SIGKILL'))
  return { keycloak, issuer, service }
}

describe('auth-exchange process', () => {
  it('exits 1 with one line naming every missing setting', () => {
    const result = spawnSync(process.execPath, [main], {
      env: { PATH: process.env.PATH, IDP_STYLE: 'tenant' },
      encoding: 'utf8',
    })
    expect(result.status).toBe(1)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toMatch(/^auth-exchange: invalid configuration: PF_APPLICATION_ID is required/)
    for (const name of [
      'MARKETPLACE_JWKS_URL',
      'MARKETPLACE_ISSUER',
      'TENANT_DOMAIN',
      'TENANT_CLIENT_ID',
      'TENANT_CLIENT_SECRET',
    ]) {
      expect(result.stderr).toContain(name)
    }
  })

  it('exchanges a token from its environment settings, and drains and exits 0 on SIGTERM', async () => {
    const { issuer, service } = await startRealmExchange()
    try {
      const { url } = service.readyLine as { url: string }
      expect((await fetch(`${url}/ready`)).status).toBe(200)
      const token = issuer.mint({ userId: 'u1', orgId: 'o1', applicationId: 'app_1' })
      const res = await fetch(`${url}/auth/exchange`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      })
      expect(res.status).toBe(200)
      expect(await service.stop('SIGTERM')).toBe(0)
      expect(JSON.stringify(service.logs)).not.toContain('s3cret')
    } finally {
      await cleanup.run()
    }
  })

  // Issue 35: every address a log line holds goes through one redaction, even inside a library's message (fetch
  // refuses a URL with credentials and quotes it whole).
  it("logs a failed readiness check's address without its password or token", async () => {
    const { service } = await startRealmExchange({
      MARKETPLACE_JWKS_URL: 'http://reader:hunt3r-pw@127.0.0.1:9/jwks?access_token=t0ken-value&v=2',
    })
    const { url } = service.readyLine as { url: string }
    expect((await fetch(`${url}/ready`)).status).toBe(503)
    const failed = service.logs.find((line) => line.msg === 'readiness check failed') as
      { err: { message: string } } | undefined
    expect(failed?.err.message).toContain('http://***@127.0.0.1:9/jwks?access_token=***&v=2')
    expect(JSON.stringify(service.logs)).not.toMatch(/hunt3r|t0ken-value/)
  })

  it('says only its status at /health and /ready, and serves /metrics on METRICS_PORT alone', async () => {
    const { service } = await startRealmExchange({ METRICS_PORT: '0' })
    try {
      const { url, metricsUrl } = service.readyLine as { url: string; metricsUrl: string }
      expect(await (await fetch(`${url}/health`)).text()).toBe('{"status":"ok"}')
      expect(await (await fetch(`${url}/ready`)).text()).toBe('{"status":"ready"}')
      expect((await fetch(`${url}/metrics`)).status).toBe(404)
      const metrics = await fetch(`${metricsUrl}/metrics`)
      expect(metrics.status).toBe(200)
      expect(await metrics.text()).toMatch(/^pf_exchange_process_cpu_user_seconds_total /m)
      expect((await fetch(`${metricsUrl}/auth/exchange`, { method: 'POST' })).status).toBe(404)
    } finally {
      await cleanup.run()
    }
  })

  it('fetches the JWKS and pings the realm once for 40 strangers calling /ready at once and 20 more after them (READY_CACHE_MS)', async () => {
    const { keycloak, issuer, service } = await startRealmExchange({ READY_CACHE_MS: '600000' })
    const realmPings = () =>
      keycloak.requests.filter((call) => call.path.endsWith('/.well-known/openid-configuration')).length
    try {
      const { url } = service.readyLine as { url: string }
      const before = { jwks: issuer.jwksRequests(), realm: realmPings() }
      const burst = await Promise.all(Array.from({ length: 40 }, () => fetch(`${url}/ready`)))
      for (let i = 0; i < 20; i += 1) expect((await fetch(`${url}/ready`)).status).toBe(200)
      expect(burst.map((res) => res.status)).toEqual(Array.from({ length: 40 }, () => 200))
      expect({ jwks: issuer.jwksRequests() - before.jwks, realm: realmPings() - before.realm }).toEqual({
        jwks: 1,
        realm: 1,
      })
    } finally {
      await cleanup.run()
    }
  })

  it('reads ACCOUNT_ADOPTION=unlinked as verified and MARKETPLACE_MAX_TOKEN_AGE_SECONDS=off; logs the adoption once, the email hashed', async () => {
    const { keycloak, issuer, service } = await startRealmExchange({
      ACCOUNT_ADOPTION: 'unlinked',
      MARKETPLACE_MAX_TOKEN_AGE_SECONDS: 'off',
    })
    try {
      const { url } = service.readyLine as { url: string }
      const post = (claims: Record<string, unknown>) =>
        fetch(`${url}/auth/exchange`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${issuer.mint({ orgId: 'o1', applicationId: 'app_1', ...claims } as never, { expiresInSec: 3 * 3600 })}`,
          },
        })
      const iat = Math.floor(Date.now() / 1000) - 7200 // older than the default limit of an hour
      const unverified = keycloak.seedUser({
        username: 'bob',
        email: 'bob@example.com',
        firstName: 'B',
        lastName: 'B',
      })
      const holder = keycloak.seedUser({
        username: 'jane',
        email: 'jane@example.com',
        firstName: 'Jane',
        lastName: 'Doe',
        emailVerified: true,
      })
      expect((await post({ userId: 'u2', email: 'bob@example.com', iat })).status).toBe(409)
      const res = await post({ userId: 'u3', email: 'jane@example.com', iat })
      expect(res.status).toBe(200)
      expect(((await res.json()) as { user: { id: string } }).user.id).toBe(holder.id)
      expect(unverified.attributes).toEqual({})
      expect(await service.stop('SIGTERM')).toBe(0)
      const adopted = service.logs.filter((line) => line.event === 'account_adopted')
      expect(adopted).toEqual([expect.objectContaining({ pfUserId: 'u3', idpUserId: holder.id })])
      expect(JSON.stringify(adopted)).not.toContain('jane@example.com')
    } finally {
      await cleanup.run()
    }
  })

  it.each(['full and unread', 'closed by its reader'])(
    'exits 0 on SIGTERM with its log pipe %s (guide: whatever state its stdout is in)',
    async (state) => {
      const { issuer, service } = await startRealmExchange()
      try {
        if (state === 'full and unread') service.child.stdout!.pause()
        else service.child.stdout!.destroy()
        const { url } = service.readyLine as { url: string }
        const token = issuer.mint({ userId: `u-${'x'.repeat(200)}`, orgId: 'o1', applicationId: 'app_1' })
        // One info line (~300 bytes with its long user id) per exchange: ~120 KiB, more than a pipe holds.
        for (let i = 0; i < 400; i += 1) {
          const res = await fetch(`${url}/auth/exchange`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}` },
          })
          expect(res.status).toBe(200)
        }
        expect(await service.stop('SIGTERM')).toBe(0)
      } finally {
        await cleanup.run()
      }
    },
  )
})
