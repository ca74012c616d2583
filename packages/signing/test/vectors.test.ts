import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SIGNATURE_HEADER, signCallback, signWebhook, verifyCallback, verifyWebhook } from '@pf/signing'

interface Vector {
  key: string
  body: string
  header?: string
  value: string
}

// The spec's test vectors, the repository's copy (data/reference/spec), read directly rather than through
// @pf/testkit, which itself depends on this package: no workspace cycle.
const vectors = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', 'data', 'reference', 'spec', 'test-vectors.json'), 'utf8'),
) as { callback: Vector[]; webhook: Vector[]; externalHexHmacSha256: Vector[] }

function flipOneByte(bytes: Buffer, at = Math.floor(bytes.length / 2)): Buffer {
  const copy = Buffer.from(bytes)
  copy[at] = (copy[at] ?? 0) ^ 0x01
  return copy
}

describe('callback vectors (spec "Authentication" 2: X-PF-Signature = sha256=<hex>)', () => {
  it.each(vectors.callback)(
    'signCallback($key) matches the vector for $body',
    ({ key, body, value, header }) => {
      expect(header).toBe(SIGNATURE_HEADER)
      expect(signCallback(key, Buffer.from(body, 'utf8'))).toBe(value)
      expect(signCallback(key, body)).toBe(value)
    },
  )

  it.each(vectors.callback)(
    'verifyCallback($key) accepts the vector and refuses it with one byte flipped',
    (v) => {
      const body = Buffer.from(v.body, 'utf8')
      expect(verifyCallback(v.key, body, v.value)).toBe(true)
      expect(verifyCallback(v.key, flipOneByte(body), v.value)).toBe(false)
      expect(verifyCallback(v.key, body, flipOneByte(Buffer.from(v.value)).toString())).toBe(false)
      expect(verifyCallback(v.key, body, v.value.slice('sha256='.length))).toBe(false)
    },
  )
})

describe('webhook vectors (spec "Authentication" 3: bare lowercase hex, no prefix)', () => {
  it.each(vectors.webhook)('signWebhook matches the vector for $body', ({ key, body, value }) => {
    expect(signWebhook(key, Buffer.from(body, 'utf8'))).toBe(value)
  })

  it.each(vectors.webhook)(
    'verifyWebhook accepts the vector and refuses a flipped byte or a sha256= prefix',
    (v) => {
      const body = Buffer.from(v.body, 'utf8')
      expect(verifyWebhook(v.key, body, v.value)).toBe(true)
      expect(verifyWebhook(v.key, flipOneByte(body), v.value)).toBe(false)
      expect(verifyWebhook(v.key, flipOneByte(body, body.length - 1), v.value)).toBe(false)
      expect(verifyWebhook(v.key, body, `sha256=${v.value}`)).toBe(false)
    },
  )
})

describe('external vectors (other libraries, same primitive)', () => {
  it.each(vectors.externalHexHmacSha256)('signWebhook matches $from', ({ key, body, value }) => {
    expect(signWebhook(key, body)).toBe(value)
    expect(verifyWebhook(key, Buffer.from(body, 'utf8'), value)).toBe(true)
    expect(verifyCallback(key, body, `sha256=${value}`)).toBe(true)
  })

  it.each(vectors.externalHexHmacSha256.filter((v) => v.body.length > 0))(
    'a flipped byte fails for $from',
    ({ key, body, value }) => {
      expect(verifyWebhook(key, flipOneByte(Buffer.from(body, 'utf8')), value)).toBe(false)
    },
  )
})
