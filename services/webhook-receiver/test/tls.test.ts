import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
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

describe("the image's HEALTHCHECK", () => {
  // The probe command exactly as the Dockerfile has it: with TLS on, a plain-HTTP probe would mark a healthy
  // receiver unhealthy forever.
  const dockerfile = readFileSync(join(__dirname, '..', 'Dockerfile'), 'utf8')
  const [command, ...args] = JSON.parse(
    /^HEALTHCHECK [^\n]*\\\n\s*CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]',
  ) as string[]
  // Asynchronous: the server under probe lives in this process, so a blocking spawn would starve it.
  const run = (env: Record<string, string>) =>
    new Promise<number | null>((resolve) => {
      execFile(
        command === 'node' ? process.execPath : (command ?? 'missing-HEALTHCHECK'),
        args,
        { env: { PATH: process.env.PATH, ...env } },
        (error) => resolve(error ? (typeof error.code === 'number' ? error.code : null) : 0),
      )
    })

  it('answers 0 against a receiver serving TLS (TLS_CERT_FILE set)', async () => {
    expect(await run({ PORT: String(server.port), TLS_CERT_FILE: '/etc/tls/tls.crt' })).toBe(0)
  })

  it('answers 1 when it cannot read /health (plain HTTP at a TLS port)', async () => {
    expect(await run({ PORT: String(server.port) })).toBe(1)
  })
})
