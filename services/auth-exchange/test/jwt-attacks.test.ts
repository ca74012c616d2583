import { randomUUID } from 'node:crypto'
import jwt from 'jsonwebtoken'
import { createCleanup } from '@pf/testkit'
import { SigningKey } from '@pf/testkit/emulators'
import { claims, startExchange, startWorld, type Exchange, type World } from './support'

let world: World
let exchange: Exchange
const cleanup = createCleanup(afterAll)
// RSA keys are generated once for the suite (each takes a while on a busy machine): a stranger's key, whose
// tokens claim any kid.
const stranger = new SigningKey()
const forged = (payload: object, kid = stranger.kid) =>
  jwt.sign({ ...payload, iss: world.issuer.issuer }, privatePem(stranger), {
    algorithm: 'RS256',
    keyid: kid,
    expiresIn: 60,
  })
beforeAll(async () => {
  world = cleanup.add(await startWorld('realm-26'), (w) => w.stop())
  exchange = cleanup.add(await startExchange(world), (e) => e.close())
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
    ['an unknown kid (another key)', () => forged(claims('a7'))],
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

  it('refuses a token without exp, which would never expire (exp is required)', async () => {
    const res = await exchange.post(world.issuer.mint(claims('e1'), { expiresInSec: null }))
    expect(res.status).toBe(401)
    expect(res.body.error_description).toMatch(/no exp/)
  })

  it('refuses a token issued longer ago than MARKETPLACE_MAX_TOKEN_AGE_SECONDS, even if it has not expired', async () => {
    const token = world.issuer.mint(claims('e2', { iat: now() - 7200 }), { expiresInSec: 3 * 3600 })
    const res = await exchange.post(token)
    expect(res.status).toBe(401)
    expect(world.userCount()).toBe(0)
  })

  it('refuses claims longer than 255 characters (the provider could not store them)', async () => {
    const res = await exchange.post(world.issuer.mint(claims('u'.repeat(256))))
    expect(res.status).toBe(401)
    expect(res.body.error_description).toMatch(/userId is longer than 255/)
  })
})

describe('iat is optional (the spec never names it); exp stays required', () => {
  const withoutIat = (userId: string) =>
    jwt.sign({ ...claims(userId), iss: world.issuer.issuer }, privatePem(), {
      algorithm: 'RS256',
      keyid: world.issuer.key().kid,
      expiresIn: 300,
      noTimestamp: true,
    })

  it('accepts a token without iat: MARKETPLACE_MAX_TOKEN_AGE_SECONDS applies only when iat is present', async () => {
    const token = withoutIat('i1')
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())).not.toHaveProperty('iat')
    expect((await exchange.post(token)).status).toBe(200)
  })

  it('with MARKETPLACE_MAX_TOKEN_AGE_SECONDS=off accepts an old iat, and still refuses a token without exp', async () => {
    const off = await startExchange(world, {
      configure: (config) => ({
        ...config,
        marketplace: { ...config.marketplace, maxTokenAgeSec: undefined },
      }),
    })
    try {
      const old = world.issuer.mint(claims('i2', { iat: now() - 7200 }), { expiresInSec: 3 * 3600 })
      expect((await off.post(old)).status).toBe(200)
      expect((await off.post(world.issuer.mint(claims('i3'), { expiresInSec: null }))).status).toBe(401)
    } finally {
      await off.close()
    }
  })
})

describe('the marketplace JWKS: a cache strangers cannot drain, and 503 when the keys cannot be fetched', () => {
  let own: Exchange
  beforeAll(async () => {
    own = await startExchange(world, {
      configure: (config) => ({ ...config, marketplace: { ...config.marketplace, jwksCooldownMs: 200 } }),
    })
  })
  afterAll(() => own.close())

  // The count is taken with an hour-long cool-down: with 200 ms, a busy machine spreads 20 requests over several
  // cool-downs and the count would measure the machine, not the rule.
  it('answers tokens with random kids with 401 at one JWKS fetch per cool-down', async () => {
    const patient = await startExchange(world, {
      configure: (config) => ({
        ...config,
        marketplace: { ...config.marketplace, jwksCooldownMs: 3_600_000 },
      }),
    })
    try {
      expect((await patient.post(world.issuer.mint(claims('k0')))).status).toBe(200)
      const before = world.issuer.jwksRequests()
      const strangers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => patient.post(forged(claims(`x${i}`), randomUUID()))),
      )
      expect(strangers.map((r) => r.status)).toEqual(Array(20).fill(401))
      expect(world.issuer.jwksRequests() - before).toBeLessThanOrEqual(1)
    } finally {
      await patient.close()
    }
  })

  it('still accepts a real rotation once the cool-down has passed, whatever strangers sent', async () => {
    expect((await own.post(world.issuer.mint(claims('k1')))).status).toBe(200)
    await Promise.all(Array.from({ length: 20 }, (_, i) => own.post(forged(claims(`y${i}`), randomUUID()))))
    world.issuer.rotateKey()
    // Within the cool-down the new kid may still be refused; once it has passed, the rotation is fetched.
    let status = 0
    for (let attempt = 0; attempt < 100 && status !== 200; attempt += 1) {
      status = (await own.post(world.issuer.mint(claims('k2')))).status
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(status).toBe(200)
  })

  it('answers 503 temporarily_unavailable with Retry-After when the keys cannot be fetched; known keys keep working', async () => {
    const known = world.issuer.mint(claims('k3'))
    expect((await own.post(known)).status).toBe(200)
    world.issuer.setJwksAvailable(false)
    try {
      expect((await own.post(world.issuer.mint(claims('k3')))).status).toBe(200)
      world.issuer.rotateKey()
      await new Promise((resolve) => setTimeout(resolve, 250)) // past the cool-down: the next unknown kid fetches
      const res = await own.post(world.issuer.mint(claims('k4')))
      expect(res.status).toBe(503)
      expect(res.body.error).toBe('temporarily_unavailable')
      expect(res.headers.get('retry-after')).toBe('5')
    } finally {
      world.issuer.setJwksAvailable(true)
    }
  })
})

// A key's private half (the issuer's current one by default): SigningKey keeps it private, so it is exported
// here for forging tokens in this test only.
function privatePem(key: SigningKey = world.issuer.key()): string {
  return (key as unknown as { privateKey: { export(o: object): string } }).privateKey.export({
    format: 'pem',
    type: 'pkcs8',
  })
}
