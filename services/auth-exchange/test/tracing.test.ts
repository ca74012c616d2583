import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createCleanup, startOtlpCollector, startServiceProcess, type OtlpCollector } from '@pf/testkit'
import { startKeycloakEmulator } from '@pf/testkit/emulators'
import { startMarketplaceIssuer } from '@pf/testkit/platform'

// Issue 26: the built exchange, exporting http/json to a collector this test runs, against the Keycloak emulator.
const main = join(__dirname, '..', 'dist', 'main.js')
const cleanup = createCleanup(afterAll)
let collector: OtlpCollector

beforeAll(async () => {
  if (!existsSync(main)) throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
  collector = cleanup.add(await startOtlpCollector(), (c) => c.close())
})

describe('exchange traces (issue 26)', () => {
  it('one span per exchange with one child per identity-provider call (method, route template, status, retries), and no token, password, email or secret in any', async () => {
    const keycloak = cleanup.add(
      await startKeycloakEmulator({
        clients: [{ clientId: 'pf-exchange', secret: 's3cret' }],
        unmanagedAttributes: true,
      }),
      (k) => k.stop(),
    )
    const issuer = cleanup.add(await startMarketplaceIssuer(), (i) => i.stop())
    const service = cleanup.add(
      await startServiceProcess({
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
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_BSP_SCHEDULE_DELAY: '100',
        },
        readyMessage: 'auth exchange listening',
      }),
      (s) => s.stop('SIGKILL'),
    )
    const { url } = service.readyLine as { url: string }
    keycloak.requests.splice(0)
    // The first user search answers 503 once: its span says it took a retry.
    keycloak.injectFault({
      status: 503,
      match: (call) => call.method === 'GET' && /\/users$/.test(call.path),
    })
    const email = 'traced.user@example.com'
    const token = issuer.mint({ userId: 'u-traced', orgId: 'o1', applicationId: 'app_1', email })
    const res = await fetch(`${url}/auth/exchange`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(200)
    const tokens = (await res.json()) as { access_token: string; refresh_token: string }

    const spans = await collector.waitForSpans(
      (all) => all.some((span) => span.name === 'auth.exchange'),
      'the exchange span',
    )
    const exchange = spans.find((span) => span.name === 'auth.exchange')!
    expect(exchange).toMatchObject({ serviceName: 'auth-exchange', statusCode: 0 })
    expect(exchange.attributes).toEqual({ 'pf.outcome': expect.any(String) })
    await collector.waitForSpans(() => {
      const children = collector.spans().filter((span) => span.parentSpanId === exchange.spanId)
      const retries = children.reduce((sum, span) => sum + Number(span.attributes['pf.idp.retries']), 0)
      return children.length + retries === keycloak.requests.length
    }, 'one child span per identity-provider call')
    const children = collector.spans().filter((span) => span.parentSpanId === exchange.spanId)
    expect(children.length).toBeGreaterThan(1)
    for (const child of children) {
      expect(child.traceId).toBe(exchange.traceId)
      expect(child.name).toBe(
        `${child.attributes['http.request.method']} ${child.attributes['url.template']}`,
      )
      expect(child.attributes['http.response.status_code']).toEqual(expect.any(Number))
    }
    const retried = children.filter((span) => span.attributes['pf.idp.retries'] === 1)
    expect(retried).toEqual([
      expect.objectContaining({
        name: 'GET /admin/realms/{}/users',
        attributes: expect.objectContaining({ 'http.response.status_code': 200 }),
      }),
    ])
    const exported = JSON.stringify(collector.spans())
    for (const secret of [
      token,
      tokens.access_token,
      tokens.refresh_token,
      's3cret',
      'adm1n-pw',
      email,
      'u-traced',
    ])
      expect(exported).not.toContain(secret)
  })
})
