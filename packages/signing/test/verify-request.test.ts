import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  parseJsonBody,
  readRawBody,
  SIGNATURE_HEADER,
  signCallback,
  signWebhook,
  verifyRequest,
} from '@pf/signing'

const secret = 'whsec_test_secret'
const header = (signature: string) => ({ [SIGNATURE_HEADER.toLowerCase()]: signature })

describe('verifyRequest({raw, headers, secrets}): one check, no framework (spec, "Authentication" 3)', () => {
  const raw = Buffer.from('{"event":"session.ended"}')

  it('returns the raw bytes and the index of the secret that signed them', () => {
    const verified = verifyRequest({
      raw,
      headers: header(signWebhook(secret, raw)),
      secrets: ['new', secret],
    })
    expect(verified).toEqual({ ok: true, raw, secretIndex: 1 })
  })

  it('returns a typed refusal (ERR_SIGNATURE_MISMATCH), never throws, for a missing or wrong signature', () => {
    const missing = verifyRequest({ raw, headers: {}, secrets: [secret] })
    expect(missing).toMatchObject({ ok: false, refusal: { code: 'ERR_SIGNATURE_MISMATCH' } })
    const wrong = verifyRequest({ raw, headers: header(signWebhook('other', raw)), secrets: [secret] })
    expect(wrong).toMatchObject({ ok: false, refusal: { code: 'ERR_SIGNATURE_MISMATCH' } })
  })

  it('checks the callback scheme (sha256=<hex>) when asked to', () => {
    const headers = header(signCallback('cb-token', raw))
    expect(verifyRequest({ raw, headers, secrets: ['cb-token'], scheme: 'callback' }).ok).toBe(true)
    expect(verifyRequest({ raw, headers, secrets: ['cb-token'] }).ok).toBe(false)
  })

  it('throws TypeError only for misuse: no secret, or an empty one', () => {
    expect(() => verifyRequest({ raw, headers: {}, secrets: [] })).toThrow(TypeError)
    expect(() => verifyRequest({ raw, headers: header('x'), secrets: [''] })).toThrow(TypeError)
  })
})

describe('parseJsonBody(raw) skips a leading UTF-8 BOM, which is signed but not JSON', () => {
  it('parses a body with and without a BOM, and refuses one that is not JSON with ERR_INVALID_JSON', () => {
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')])
    expect(parseJsonBody(withBom)).toEqual({ text: '{"a":1}', body: { a: 1 } })
    expect(parseJsonBody(Buffer.from('[1]'))).toEqual({ text: '[1]', body: [1] })
    expect(() => parseJsonBody(Buffer.from('not json'))).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_JSON' }),
    )
  })
})

describe('readRawBody(req, {limit}) on plain node:http', () => {
  let server: Server
  let url: string
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      readRawBody(req, { limit: 64, response: res }).then(
        (raw) => res.end(`read ${raw.length}`),
        (error: { code: string }) => res.writeHead(400).end(error.code),
      )
    })
    server.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  const post = (body: string | ReadableStream) =>
    fetch(url, { method: 'POST', body, duplex: 'half', signal: AbortSignal.timeout(5000) } as RequestInit)

  it('reads a body within the limit as it came', async () => {
    expect(await (await post('x'.repeat(64))).text()).toBe('read 64')
  })

  it('refuses a body past the limit with ERR_PAYLOAD_TOO_LARGE, with or without a Content-Length', async () => {
    const big = 'x'.repeat(100)
    const announced = await post(big)
    expect(await announced.text()).toBe('ERR_PAYLOAD_TOO_LARGE')
    expect(announced.headers.get('connection')).toBe('close')
    const streamed = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big))
        controller.close()
      },
    })
    expect(await (await post(streamed)).text()).toBe('ERR_PAYLOAD_TOO_LARGE')
  })
})
