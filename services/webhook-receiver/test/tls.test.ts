import { connect, type ConnectionOptions } from 'node:tls'
import express from 'express'
import selfsigned from 'selfsigned'
import { listen, type RunningServer } from '@pf/service-kit'

// Spec, receiver rule 5: HTTPS with TLS 1.2 or newer. With TLS_CERT_FILE/TLS_KEY_FILE the receiver serves TLS
// itself through service-kit's listen(), which this exercises with a certificate made for the test.
let server: RunningServer

beforeAll(async () => {
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    notAfterDate: new Date(Date.now() + 24 * 3600 * 1000),
  })
  const app = express().get('/health', (_req, res) => void res.json({ status: 'ok' }))
  server = await listen(app, { port: 0, host: '127.0.0.1', tls: { cert: pems.cert, key: pems.private } })
})
afterAll(() => server.close())

function handshake(options: ConnectionOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(
      { host: '127.0.0.1', port: server.port, rejectUnauthorized: false, ...options },
      () => {
        const protocol = socket.getProtocol() ?? 'unknown'
        socket.end()
        resolve(protocol)
      },
    )
    socket.once('error', reject)
  })
}

describe('TLS: 1.2 or newer only', () => {
  it('accepts TLS 1.2', async () => {
    expect(await handshake({ minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' })).toBe('TLSv1.2')
  })

  it('accepts TLS 1.3', async () => {
    expect(await handshake({ minVersion: 'TLSv1.3' })).toBe('TLSv1.3')
  })

  it('refuses a TLS 1.1 client', async () => {
    // SECLEVEL=0 lets this OpenSSL offer TLS 1.1 at all, so the refusal comes from the server.
    await expect(
      handshake({ minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }),
    ).rejects.toThrow(/protocol version|unsupported protocol|no protocols available/i)
  })

  it('refuses a TLS 1.0 client', async () => {
    await expect(
      handshake({ minVersion: 'TLSv1', maxVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' }),
    ).rejects.toThrow(/protocol version|unsupported protocol|no protocols available/i)
  })

  it('serves HTTPS requests', async () => {
    const https = await import('node:https')
    const status = await new Promise<number | undefined>((resolve, reject) => {
      https
        .get(`${server.url}/health`, { rejectUnauthorized: false }, (res) => {
          res.resume()
          resolve(res.statusCode)
        })
        .once('error', reject)
    })
    expect(status).toBe(200)
  })
})
