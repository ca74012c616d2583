import { findMatchingSecret, signWebhook, verifyCallback, verifyWebhook } from '@pf/signing'

const secret = 'whsec_test_secret'

describe('signatures are over raw bytes, never over re-encoded text', () => {
  it('a UTF-8 BOM changes the signature (it is part of the body)', () => {
    const plain = Buffer.from('{"a":1}')
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), plain])
    expect(signWebhook(secret, withBom)).not.toBe(signWebhook(secret, plain))
    expect(verifyWebhook(secret, withBom, signWebhook(secret, withBom))).toBe(true)
  })

  it('invalid UTF-8 is hashed as sent, so two different invalid sequences do not collide', () => {
    const a = Buffer.from([0x7b, 0xff, 0x7d])
    const b = Buffer.from([0x7b, 0xfe, 0x7d])
    // Decoding both to a string would turn each into U+FFFD and make them equal.
    expect(a.toString('utf8')).toBe(b.toString('utf8'))
    expect(verifyWebhook(secret, b, signWebhook(secret, a))).toBe(false)
  })

  it('re-ordered JSON does not verify', () => {
    const signature = signWebhook(secret, '{"a":1,"b":2}')
    expect(verifyWebhook(secret, '{"b":2,"a":1}', signature)).toBe(false)
  })

  it('a Uint8Array and a Buffer of the same bytes give the same answer', () => {
    const bytes = new Uint8Array([1, 2, 3, 250])
    expect(signWebhook(secret, bytes)).toBe(signWebhook(secret, Buffer.from(bytes)))
  })
})

describe('verify(secret, body, signature) returns false on a mismatch and throws TypeError only for misuse', () => {
  it('returns false for a missing, empty, upper-case or truncated signature', () => {
    const body = '{"x":1}'
    const good = signWebhook(secret, body)
    for (const bad of [undefined, null, '', good.toUpperCase(), good.slice(1), `${good}0`]) {
      expect(verifyWebhook(secret, body, bad)).toBe(false)
    }
  })

  it('throws TypeError for an empty secret or a body that is not bytes', () => {
    expect(() => verifyWebhook('', 'x', 'y')).toThrow(TypeError)
    expect(() => verifyCallback(undefined as unknown as string, 'x', 'y')).toThrow(TypeError)
    expect(() => verifyWebhook(secret, { a: 1 } as unknown as string, 'y')).toThrow(TypeError)
    expect(() => signWebhook(secret, undefined as unknown as string)).toThrow(TypeError)
  })
})

describe('rotation: several secrets, and which one matched', () => {
  const body = '{"event":"session.created"}'

  it('accepts a signature made with an additional secret', () => {
    const signature = signWebhook('old-secret', body)
    expect(verifyWebhook('new-secret', body, signature)).toBe(false)
    expect(verifyWebhook('new-secret', body, signature, { additionalSecrets: ['old-secret'] })).toBe(true)
  })

  it('findMatchingSecret returns the index of the secret that signed, or -1', () => {
    const secrets = ['new-secret', 'old-secret']
    expect(
      findMatchingSecret({ scheme: 'webhook', secrets, body, signature: signWebhook('old-secret', body) }),
    ).toBe(1)
    expect(
      findMatchingSecret({ scheme: 'webhook', secrets, body, signature: signWebhook('new-secret', body) }),
    ).toBe(0)
    expect(
      findMatchingSecret({ scheme: 'webhook', secrets, body, signature: signWebhook('other', body) }),
    ).toBe(-1)
  })

  it('throws TypeError when no secret is given', () => {
    expect(() => findMatchingSecret({ scheme: 'webhook', secrets: [], body, signature: 'x' })).toThrow(
      TypeError,
    )
  })
})
