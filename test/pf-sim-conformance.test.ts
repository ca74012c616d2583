import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import selfsigned from 'selfsigned'
import { DEMO_API_KEY } from '@pf/schemas'
import { createCleanup, freePort, startServiceProcess, type ServiceProcess } from '@pf/testkit'
import { startRedis } from '@pf/testkit/redis'

// `pf-sim conformance` as a team runs it (the built CLI, a child process) against the built provider and the
// built receiver (over HTTPS, its own certificate): both keep every rule the suites can observe.
const root = join(__dirname, '..')
const bin = join(root, 'packages', 'testkit', 'dist', 'pf-sim.js')
interface Run {
  code: number
  stdout: string
  stderr: string
}
const env = { PATH: process.env.PATH }
const pfSim = (...args: string[]) =>
  new Promise<Run>((resolve) => {
    execFile(process.execPath, [bin, ...args], { env }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    )
  })

const cleanup = createCleanup(afterAll)
const SECRET = 'whsec_conformance_secret'
const dir = mkdtempSync(join(tmpdir(), 'pf-conformance-'))
let s3Endpoint: string
let provider: ServiceProcess
let receiverUrl: string

beforeAll(async () => {
  // The suite serves S3 here during its run; the provider is told so at start, as a team would configure it.
  s3Endpoint = `http://127.0.0.1:${await freePort()}`
  provider = cleanup.add(
    await startServiceProcess({
      entry: join(root, 'services', 'provider', 'dist', 'main.js'),
      env: {
        ...env,
        PORT: '0',
        S3_ENDPOINT: s3Endpoint,
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        OUTBOUND_ALLOW_PRIVATE: 'true',
      },
      readyMessage: 'provider listening',
    }),
    (p) => p.stop(),
  )
  const pems = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  })
  writeFileSync(join(dir, 'tls.crt'), pems.cert)
  writeFileSync(join(dir, 'tls.key'), pems.private)
  const redis = cleanup.add(await startRedis(), (r) => r.stop())
  const receiver = cleanup.add(
    await startServiceProcess({
      entry: join(root, 'services', 'webhook-receiver', 'dist', 'main.js'),
      env: {
        ...env,
        PORT: '0',
        REDIS_URL: redis.url,
        PF_WEBHOOK_SECRET: SECRET,
        TLS_CERT_FILE: join(dir, 'tls.crt'),
        TLS_KEY_FILE: join(dir, 'tls.key'),
      },
      readyMessage: 'webhook receiver listening',
    }),
    (r) => r.stop(),
  )
  receiverUrl = `${receiver.readyLine.url as string}/webhooks/pf`
})

const lines = (stdout: string, outcome: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith(`${outcome} `))
    .map((line) => line.split(/ {2,}/)[1])

describe('pf-sim conformance against the built services', () => {
  it('the provider passes every observable rule of interface A (the sanctions endpoint by its path), exit 0', async () => {
    const run = await pfSim(
      'conformance',
      'provider',
      '--url',
      provider.readyLine.url as string,
      '--api-key',
      DEMO_API_KEY,
      '--endpoint',
      '/api/search/sanctions',
      '--parameters',
      '{"name":"kim jong un"}',
      '--s3-endpoint',
      s3Endpoint,
    )
    expect(run).toMatchObject({ code: 0, stderr: '' })
    expect(lines(run.stdout, 'FAIL')).toEqual([])
    expect(lines(run.stdout, 'NOT CHECKED')).toEqual(['api-key-constant-time', 'logs-without-secrets'])
    expect(lines(run.stdout, 'PASS')).toHaveLength(21)
    expect(run.stdout).toMatch(/\n21 passed, 0 failed, 2 not checked \(of 23 rules\)\n$/)
  })

  it('the receiver passes every observable rule of interface B over HTTPS, TLS below 1.2 refused, exit 0', async () => {
    const run = await pfSim(
      'conformance',
      'receiver',
      '--url',
      receiverUrl,
      '--secret',
      SECRET,
      '--ca',
      join(dir, 'tls.crt'),
    )
    expect(run).toMatchObject({ code: 0, stderr: '' })
    expect(lines(run.stdout, 'FAIL')).toEqual([])
    expect(lines(run.stdout, 'PASS')).toContain('tls-below-1.2-refused')
    expect(lines(run.stdout, 'NOT CHECKED')).toEqual([
      'duplicate-single-effect',
      'asynchronous-processing',
      'signature-constant-time',
    ])
  })

  it('with the wrong secret the signed events fail: exit 1, the failed rules named on stderr; --json', async () => {
    const run = await pfSim(
      'conformance',
      'receiver',
      '--url',
      receiverUrl,
      '--secret',
      'not-the-secret',
      '--ca',
      join(dir, 'tls.crt'),
      '--json',
    )
    expect(run.code).toBe(1)
    const report = JSON.parse(run.stdout) as { passed: boolean; results: { rule: string; outcome: string }[] }
    expect(report.passed).toBe(false)
    expect(report.results.find((r) => r.rule === 'signed-session.created')?.outcome).toBe('FAIL')
    expect(run.stderr).toMatch(/^pf-sim: conformance receiver: 8 rules failed: signed-session\.created, /)
  })
})
