import type { ConfigError } from '@pf/service-kit'
import { loadReceiverConfig, loadWorkerConfig } from '../src/config'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import selfsigned from 'selfsigned'

const problemsOf = (env: Record<string, string>) => {
  try {
    loadReceiverConfig(env)
    return []
  } catch (error) {
    return (error as ConfigError).problems
  }
}
const SECRET_32 = 'whsec_'.padEnd(32, 'x')

describe('receiver configuration in production (NODE_ENV=production)', () => {
  it('refuses a webhook secret under 32 bytes (an HMAC-SHA256 key) or a placeholder, in any rotation slot', () => {
    expect(problemsOf({ NODE_ENV: 'production', ALLOW_PLAIN_HTTP: 'true', PF_WEBHOOK_SECRET: 'x' })).toEqual([
      'PF_WEBHOOK_SECRET must be at least 32 bytes when NODE_ENV=production (got 1)',
    ])
    expect(
      problemsOf({
        NODE_ENV: 'production',
        ALLOW_PLAIN_HTTP: 'true',
        PF_WEBHOOK_SECRET: `${SECRET_32},change-me`,
      }),
    ).toEqual([
      'PF_WEBHOOK_SECRET holds a placeholder or public value: set your own secret when NODE_ENV=production',
    ])
  })

  it('refuses plain HTTP unless ALLOW_PLAIN_HTTP=true (TLS ends at an ingress) or it serves TLS itself', async () => {
    expect(problemsOf({ NODE_ENV: 'production', PF_WEBHOOK_SECRET: SECRET_32 })).toEqual([
      expect.stringMatching(/^NODE_ENV=production serves webhooks over HTTPS only .* ALLOW_PLAIN_HTTP=true/),
    ])
    expect(
      problemsOf({ NODE_ENV: 'production', PF_WEBHOOK_SECRET: SECRET_32, ALLOW_PLAIN_HTTP: 'true' }),
    ).toEqual([])
    const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }])
    const dir = mkdtempSync(join(tmpdir(), 'pf-tls-'))
    const [certFile, keyFile] = [join(dir, 'cert.pem'), join(dir, 'key.pem')]
    writeFileSync(certFile, pems.cert)
    writeFileSync(keyFile, pems.private)
    expect(
      problemsOf({
        NODE_ENV: 'production',
        PF_WEBHOOK_SECRET: SECRET_32,
        TLS_CERT_FILE: certFile,
        TLS_KEY_FILE: keyFile,
      }),
    ).toEqual([])
  })

  it('accepts a short secret and plain HTTP outside production (the sandbox, tests)', () => {
    expect(problemsOf({ PF_WEBHOOK_SECRET: 'x' })).toEqual([])
  })
})

describe('server limits', () => {
  it('the receiver and the worker read the shared settings; the worker waits longer for jobs in progress', () => {
    expect(
      loadReceiverConfig({ PF_WEBHOOK_SECRET: 'x', HTTP_REQUEST_TIMEOUT_MS: '15000' }).server,
    ).toMatchObject({
      requestTimeoutMs: 15_000,
      drainTimeoutMs: 10_000,
    })
    expect(loadWorkerConfig({}).server.drainTimeoutMs).toBe(30_000)
  })
})
