import type { AddressInfo } from 'node:net'
import express from 'express'
import { createCleanup } from '@pf/testkit'
import { startKeycloakEmulator, type KeycloakEmulator } from '@pf/testkit/emulators'
import {
  createRealmClient,
  createTokenVerifier,
  normalizeRealmClaims,
  requireIdpToken,
} from '@pf/idp-clients'

let keycloak: KeycloakEmulator
let url: string
let accessToken: string

const cleanup = createCleanup(afterAll)
beforeAll(async () => {
  keycloak = cleanup.add(
    await startKeycloakEmulator({ clients: [{ clientId: 'app', secret: 's' }], unmanagedAttributes: true }),
    (k) => k.stop(),
  )
  const realm = createRealmClient({
    serverUrl: keycloak.url,
    realm: 'pf',
    clientId: 'app',
    clientSecret: 's',
    adminUser: 'admin',
    adminPassword: 'admin',
  })
  const synced = await realm.syncUser({ userId: 'u1', orgId: 'o1', applicationId: 'a1' }, 'pw')
  accessToken = (await realm.passwordGrant(synced.username, 'pw')).access_token
  const verify = createTokenVerifier({ jwksUri: realm.jwksUri, issuer: realm.issuer })
  const app = express()
  app.get('/me', requireIdpToken({ verify, normalize: normalizeRealmClaims }), (req, res) => {
    res.json((req as unknown as { idpClaims: unknown }).idpClaims)
  })
  app.get(
    '/admin',
    requireIdpToken({ verify, normalize: normalizeRealmClaims, roles: ['org-admin'] }),
    (_req, res) => void res.json({}),
  )
  const server = cleanup.add(app.listen(0, '127.0.0.1'), (s) => s.close())
  await new Promise((resolve) => server.once('listening', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

describe('requireIdpToken', () => {
  it('puts the normalised claims of a valid token on the request', async () => {
    const res = await fetch(`${url}/me`, { headers: { authorization: `Bearer ${accessToken}` } })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      pfUserId: 'u1',
      orgId: 'o1',
      pfApplicationId: 'a1',
      roles: expect.arrayContaining(['pf-user']),
    })
  })

  it('answers 401 invalid_token with WWW-Authenticate for a missing or tampered token', async () => {
    for (const authorization of [undefined, `Bearer ${accessToken.slice(0, -4)}AAAA`]) {
      const res = await fetch(`${url}/me`, { headers: authorization ? { authorization } : {} })
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
      expect(await res.json()).toMatchObject({ error: 'invalid_token' })
    }
  })

  it('answers 403 when a required role is missing', async () => {
    const res = await fetch(`${url}/admin`, { headers: { authorization: `Bearer ${accessToken}` } })
    expect(res.status).toBe(403)
  })
})
