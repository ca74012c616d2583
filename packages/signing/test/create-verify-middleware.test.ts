import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import express, { type ErrorRequestHandler } from 'express'
import {
  createVerifyMiddleware,
  SIGNATURE_HEADER,
  signCallback,
  signWebhook,
  type SigningError,
  type SigningErrorCode,
  type VerifiedRequest,
  type VerifyMiddlewareOptions,
} from '@pf/signing'

const secret = 'whsec_test_secret'
// What a service does with the refusals: its own table from code to status (the errors carry no status).
const STATUS: Record<SigningErrorCode, number> = {
  ERR_SIGNATURE_MISMATCH: 401,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_INVALID_JSON: 400,
  ERR_BODY_READ: 400,
  ERR_BODY_ALREADY_CONSUMED: 500,
}
const servers: Server[] = []
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))))

async function startApp(options: VerifyMiddlewareOptions, { jsonParserFirst = false } = {}) {
  const received: VerifiedRequest[] = []
  const app = express()
  if (jsonParserFirst) app.use(express.json())
  app.post('/hook', createVerifyMiddleware(options), (req, res) => {
    received.push(req as unknown as VerifiedRequest)
    res.json({ received: true })
  })
  const onError: ErrorRequestHandler = (error: SigningError, _req, res, _next) => {
    res.status(STATUS[error.code] ?? 500).json({ error: error.message, code: error.code })
  }
  app.use(onError)
  const server = app.listen(0, '127.0.0.1')
  servers.push(server)
  await new Promise((resolve) => server.once('listening', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return { url, received }
}

function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
    signal: AbortSignal.timeout(5000),
  })
}

describe('createVerifyMiddleware verifies the raw body before parsing', () => {
  it('passes a correctly signed body on, parsed, with the exact bytes and the matching secret index', async () => {
    const { url, received } = await startApp({ secret: 'new', additionalSecrets: [secret] })
    const body = '{ "event": "session.ended",  "data": {} }\n'
    const res = await post(url, body, { [SIGNATURE_HEADER]: signWebhook(secret, body) })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ received: true })
    expect(received[0]?.body).toEqual({ event: 'session.ended', data: {} })
    expect(received[0]?.rawBody.toString()).toBe(body)
    expect(received[0]?.signatureSecretIndex).toBe(1)
  })

  it('answers 401 for a missing header and for a wrong signature, without calling the route', async () => {
    const { url, received } = await startApp({ secret })
    const missing = await post(url, '{}')
    expect(missing.status).toBe(401)
    expect(await missing.json()).toMatchObject({ code: 'ERR_SIGNATURE_MISMATCH' })
    const wrong = await post(url, '{}', { [SIGNATURE_HEADER]: signWebhook('other', '{}') })
    expect(wrong.status).toBe(401)
    expect(received).toHaveLength(0)
  })

  it('answers 413 past the limit, with or without a Content-Length', async () => {
    const { url } = await startApp({ secret, limit: 64 })
    const big = JSON.stringify({ pad: 'x'.repeat(100) })
    const res = await post(url, big, { [SIGNATURE_HEADER]: signWebhook(secret, big) })
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({ code: 'ERR_PAYLOAD_TOO_LARGE' })

    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big))
        controller.close()
      },
    })
    const streamed = await fetch(url, {
      method: 'POST',
      body: chunked,
      duplex: 'half',
      headers: { [SIGNATURE_HEADER]: signWebhook(secret, big) },
    } as RequestInit)
    expect(streamed.status).toBe(413)
  })

  it('defaults to a 1 MiB limit', async () => {
    const { url } = await startApp({ secret })
    const body = JSON.stringify({ pad: 'x'.repeat(1024 * 1024) })
    const res = await post(url, body, { [SIGNATURE_HEADER]: signWebhook(secret, body) })
    expect(res.status).toBe(413)
  })

  it('answers 400 for a body that is correctly signed but not JSON', async () => {
    const { url } = await startApp({ secret })
    const body = 'not json'
    const res = await post(url, body, { [SIGNATURE_HEADER]: signWebhook(secret, body) })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ code: 'ERR_INVALID_JSON' })
  })

  it('verifies a body with a UTF-8 BOM over its bytes and still parses it', async () => {
    const { url, received } = await startApp({ secret })
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')])
    const res = await post(url, body, { [SIGNATURE_HEADER]: signWebhook(secret, body) })
    expect(res.status).toBe(200)
    expect(received[0]?.body).toEqual({ a: 1 })
  })

  it('verifies the callback scheme (sha256=<hex>) when asked to', async () => {
    const { url } = await startApp({ secret: 'cb-token', scheme: 'callback' })
    const body = '{"queryId":"q"}'
    expect((await post(url, body, { [SIGNATURE_HEADER]: signCallback('cb-token', body) })).status).toBe(200)
    expect((await post(url, body, { [SIGNATURE_HEADER]: signWebhook('cb-token', body) })).status).toBe(401)
  })

  it('fails loudly with 500, not a hang, when a JSON body parser already consumed the stream', async () => {
    const { url } = await startApp({ secret }, { jsonParserFirst: true })
    const body = '{"a":1}'
    const res = await post(url, body, { [SIGNATURE_HEADER]: signWebhook(secret, body) })
    expect(res.status).toBe(500)
    expect(await res.json()).toMatchObject({ code: 'ERR_BODY_ALREADY_CONSUMED' })
  })

  it('throws TypeError at wiring time for an empty secret', () => {
    expect(() => createVerifyMiddleware({ secret: '' })).toThrow(TypeError)
    expect(() => createVerifyMiddleware({ secret, additionalSecrets: [''] })).toThrow(TypeError)
  })
})
