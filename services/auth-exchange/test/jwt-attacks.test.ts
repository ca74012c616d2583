import jwt from 'jsonwebtoken'
import { SigningKey } from '@pf/testkit/emulators'
import { claims, startExchange, startWorld, type Exchange, type World } from './support'

let world: World
let exchange: Exchange
beforeAll(async () => {
  world = await startWorld('realm-26')
  exchange = await startExchange(world)
})
afterAll(async () => {
  await exchange.close()
  await world.stop()
})

const base64url = (value: object | string) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')
const now = () => Math.floor(Date.now() / 1000)

describe('marketplace JWT attacks are all refused with 401 invalid_token and WWW-Authenticate: Bearer', () => {
  const attacks: [string, () => string | undefined, string?][] = [
    ['no Authorization header', () => undefined],
    ['another scheme', () => 'x', `Basic ${base64url('a:b')}`],
    ['garbage', () => 'not.a.jwt'],
    [
      'alg: none',
      () =>
        `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ ...claims('a1'), iss: world.issuer.issuer, exp: now() + 60 })}.`,
    ],
    [
      'HS256 signed with the RSA public key',
      () =>
        jwt.sign({ ...claims('a2'), iss: world.issuer.issuer }, world.issuer.key().publicPem(), {
          algorithm: 'HS256',
          keyid: world.issuer.key().kid,
          expiresIn: 60,
        }),
    ],
    [
      'expired',
      () =>
        jwt.sign({ ...claims('a3'), iss: world.issuer.issuer, exp: now() - 120 }, privatePem(), {
          algorithm: 'RS256',
          keyid: world.issuer.key().kid,
        }),
    ],
    [
      'not yet valid',
      () =>
        jwt.sign({ ...claims('a4'), iss: world.issuer.issuer, nbf: now() + 600 }, privatePem(), {
          algorithm: 'RS256',
          keyid: world.issuer.key().kid,
          expiresIn: 900,
        }),
    ],
    ['a wrong issuer', () => world.issuer.mint({ ...claims('a5'), iss: 'https://evil.example' } as never)],
    ['another application', () => world.issuer.mint(claims('a6', { applicationId: 'app_other' }))],
    [
      'an unknown kid (another key)',
      () => new SigningKey().sign({ ...claims('a7'), iss: world.issuer.issuer }, 60),
    ],
    [
      'a tampered payload',
      () => {
        const [header, , signature] = world.issuer.mint(claims('a8')).split('.')
        return `${header}.${base64url({ ...claims('a8', { orgId: 'org_admin' }), iss: world.issuer.issuer, exp: now() + 60 })}.${signature}`
      },
    ],
    ['no userId', () => world.issuer.mint(claims('a9', { userId: undefined }) as never)],
  ]

  it.each(attacks.map(([name, token, authorization]) => ({ name, token, authorization })))(
    '$name',
    async ({ token, authorization }) => {
      const res = await exchange.post(token(), authorization)
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) })
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
      expect(world.userCount()).toBe(0)
    },
  )

  it('accepts tokens signed with a rotated key (new kid fetched from the JWKS)', async () => {
    expect((await exchange.post(world.issuer.mint(claims('k1')))).status).toBe(200)
    world.issuer.rotateKey()
    expect((await exchange.post(world.issuer.mint(claims('k2')))).status).toBe(200)
  })
})

// The issuer's current private key, through a token it signs: SigningKey keeps it private, so sign via jwt
// with a key exported for this test only.
function privatePem(): string {
  return (world.issuer.key() as unknown as { privateKey: { export(o: object): string } }).privateKey.export({
    format: 'pem',
    type: 'pkcs8',
  })
}
