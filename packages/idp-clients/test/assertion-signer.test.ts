import { generateKeyPairSync } from 'node:crypto'
import { createAssertionSigner, createExchangeAssertions, parseAssertionKey } from '@pf/idp-clients'

// Issue 39: one signer for both password-less grants; Keycloak's sets `iat` back (no clock skew allowed), Auth0's
// signs `iat` = now. `exp` is `lifetimeSeconds` from now in both.
const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ format: 'pem', type: 'pkcs8' })
  .toString()
const NOW = 1_800_000_000_000
const payloadOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, number>

describe('createAssertionSigner', () => {
  it('signs iat = now by default and iatOffsetSeconds back when asked; exp is lifetimeSeconds from now', () => {
    const options = { issuer: 'https://x.example', key: { kid: 'k', privateKey: pem }, lifetimeSeconds: 60 }
    const plain = payloadOf(createAssertionSigner({ ...options, now: () => NOW })({ sub: 'u', aud: 'a' }))
    const back = payloadOf(
      createAssertionSigner({ ...options, iatOffsetSeconds: 5, now: () => NOW })({ sub: 'u', aud: 'a' }),
    )
    expect([plain.iat, plain.exp]).toEqual([NOW / 1000, NOW / 1000 + 60])
    expect([back.iat, back.exp]).toEqual([NOW / 1000 - 5, NOW / 1000 + 60])
  })

  it('refuses an iat offset outside 0..60 at creation', () => {
    for (const iatOffsetSeconds of [-1, 61, 1.5])
      expect(() =>
        createAssertionSigner({
          issuer: 'https://x.example',
          key: { kid: 'k', privateKey: pem },
          iatOffsetSeconds,
        }),
      ).toThrow(TypeError)
  })

  it("createExchangeAssertions (Keycloak's grant) signs through it with iat 5 s back", () => {
    const key = parseAssertionKey(pem)
    const next = parseAssertionKey(
      generateKeyPairSync('ec', { namedCurve: 'P-256' })
        .privateKey.export({ format: 'pem', type: 'pkcs8' })
        .toString(),
    )
    const assertions = createExchangeAssertions({
      issuer: 'https://x.example',
      current: key,
      next,
      lifetimeSec: 60,
      now: () => NOW,
    })
    const token = assertions.sign({ sub: 'u', aud: 'a' })
    expect(payloadOf(token)).toMatchObject({
      iss: 'https://x.example',
      iat: NOW / 1000 - 5,
      exp: NOW / 1000 + 60,
    })
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())).toEqual({
      alg: 'ES256',
      typ: 'JWT',
      kid: key.kid,
    })
  })
})
