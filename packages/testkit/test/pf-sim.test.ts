import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import express from 'express'
import { createVerifyMiddleware } from '@pf/signing'

// pf-sim as a user runs it: the built CLI as a child process, its stdout, stderr and exit code.
const bin = join(__dirname, '..', 'dist', 'pf-sim.js')
const home = mkdtempSync(join(tmpdir(), 'pf-sim-'))
interface Run {
  code: number
  stdout: string
  stderr: string
}
const pfSim = (...args: string[]) =>
  new Promise<Run>((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env: { PATH: process.env.PATH, PF_SIM_HOME: home } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    )
  })

let url: string
let flakyUrl: string
let deadUrl: string
let close: () => void
const received: { event: string; webhookId: string; data: Record<string, unknown> }[] = []
let flakyCalls = 0
beforeAll(async () => {
  const app = express()
  app.post('/hook', createVerifyMiddleware({ secret: 'whsec_x' }), (req, res) => {
    received.push((req as unknown as { body: (typeof received)[number] }).body)
    res.json({ received: true })
  })
  // Answers 503 twice, then 200: what retries are for.
  app.post('/flaky', (_req, res) => {
    flakyCalls += 1
    if (flakyCalls <= 2) res.status(503).json({ error: 'try later' })
    else res.json({ received: true })
  })
  app.use(
    (_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
      void res.status(401).json({ error: 'invalid X-PF-Signature signature' }),
  )
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  url = `${base}/hook`
  flakyUrl = `${base}/flaky`
  // A port nothing listens on: bound, then released.
  const probe = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => probe.once('listening', resolve))
  deadUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/webhooks/pf`
  await new Promise((resolve) => probe.close(resolve))
  close = () => server.close()
})
afterAll(() => close?.())

const NO_STACK = /\n\s+at /

describe('pf-sim usage (exit 0 for help, 2 for a mistake, never a stack trace)', () => {
  it('prints every command with help, --help and -h on stdout, exit 0', async () => {
    for (const args of [['help'], ['--help'], ['-h']]) {
      const run = await pfSim(...args)
      expect(run).toMatchObject({
        code: 0,
        stderr: '',
        stdout: expect.stringMatching(/pf-sim webhook send <kind>/),
      })
      expect(run.stdout).toMatch(/pf-sim query <companies\|sanctions>/)
    }
  })

  // Issue 36: the help says 2 is a usage mistake, and no command is one.
  it('without arguments: a usage mistake, the usage line on stderr, exit 2', async () => {
    const run = await pfSim()
    expect(run).toMatchObject({ code: 2, stdout: '' })
    expect(run.stderr).toBe(
      'pf-sim: which command? (pf-sim --help lists them)\nusage: pf-sim <webhook send|webhook raw|webhook replay|query|issuer|token|conformance provider|conformance receiver> … (pf-sim --help)\n',
    )
  })

  it('prints each command usage for --help and -h, exit 0', async () => {
    const commands = [
      ['webhook', 'send'],
      ['webhook', 'raw'],
      ['webhook', 'replay'],
      ['query'],
      ['issuer'],
      ['token'],
    ]
    for (const command of commands) {
      for (const help of ['--help', '-h']) {
        const run = await pfSim(...command, help)
        expect(run.code).toBe(0)
        expect(run.stdout).toMatch(new RegExp(`^usage: pf-sim ${command.join(' ')}`))
      }
    }
  })

  it('conformance: --help exit 0; no suite, parameters that are not a JSON object, sanctions without a name, exit 2', async () => {
    const help = await pfSim('conformance', 'receiver', '--help')
    expect(help).toMatchObject({
      code: 0,
      stderr: '',
      stdout: expect.stringMatching(/^usage: pf-sim conformance receiver --url URL --secret S/),
    })
    const target = ['--url', 'http://127.0.0.1:1', '--api-key', 'k']
    for (const [args, message] of [
      [['conformance'], 'which conformance suite? provider or receiver'],
      [
        ['conformance', 'provider', ...target, '--endpoint', 'companies', '--parameters', '[1]'],
        '--parameters takes a JSON object (got "[1]")',
      ],
      [
        ['conformance', 'provider', ...target, '--endpoint', 'sanctions'],
        'the sanctions endpoint needs a name',
      ],
    ] as const) {
      const run = await pfSim(...args)
      expect(run).toMatchObject({ code: 2, stdout: '' })
      expect(run.stderr).toContain(`pf-sim: ${message}`)
      expect(run.stderr).toMatch(/\nusage: pf-sim /)
    }
  })

  it('refuses an unknown option or a typo with the usage line, exit 2', async () => {
    const run = await pfSim(
      'webhook',
      'send',
      'session.created',
      '--url',
      url,
      '--secret',
      'x',
      '--sett',
      'a=1',
    )
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(
      'pf-sim: unknown option "--sett" for webhook send (did you mean --set?)\n' +
        'usage: pf-sim webhook send <kind> --url URL --secret S [--set field=value …] [--attempts N | --schedule platform | --no-retry] [--time-scale N] [--json]\n',
    )
    // An option of another command is a mistake here too.
    const query = await pfSim('query', 'sanctions', '--provider', 'http://127.0.0.1:1', '--set', 'a=1')
    expect(query).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/unknown option "--set" for query/),
    })
    for (const args of [
      ['webhok'],
      ['webhook', 'sned'],
      ['query', 'people', '--provider', 'http://x.example'],
    ]) {
      const wrong = await pfSim(...args)
      expect(wrong.code).toBe(2)
      expect(wrong.stderr).toMatch(/^pf-sim: .*\nusage: pf-sim /)
      expect(wrong.stderr).not.toMatch(NO_STACK)
    }
  })

  it('refuses a missing option value, a missing required option and a bad number, exit 2', async () => {
    expect(await pfSim('webhook', 'send', 'session.created', '--url')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^pf-sim: option "--url" needs a value/),
    })
    expect(await pfSim('webhook', 'send', 'session.created', '--url', url)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^pf-sim: --secret is required/),
    })
    expect(
      await pfSim('webhook', 'send', 'session.created', '--url', url, '--secret', 'x', '--attempts', '9'),
    ).toMatchObject({ code: 2, stderr: expect.stringMatching(/--attempts takes a whole number from 1 to 6/) })
  })

  it('refuses a URL without its scheme, saying why', async () => {
    const run = await pfSim(
      'webhook',
      'send',
      'session.created',
      '--url',
      '127.0.0.1:3001/webhooks/pf',
      '--secret',
      'x',
    )
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(
      /--url needs a URL with its scheme, http:\/\/ or https:\/\/ .*try http:\/\/127\.0\.0\.1:3001/,
    )
    const host = await pfSim('query', 'sanctions', '--provider', 'localhost:3002')
    expect(host).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--provider needs a URL with its scheme/),
    })
  })

  it('refuses --set of a field the kind does not have, and an unknown kind', async () => {
    const run = await pfSim(
      'webhook',
      'send',
      'session.created',
      '--url',
      url,
      '--secret',
      'whsec_x',
      '--set',
      'required=5',
    )
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^pf-sim: session.created has no field required; its fields: sessionId/)
    const kind = await pfSim('webhook', 'send', 'session.paused', '--url', url, '--secret', 'whsec_x')
    expect(kind).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/unknown kind "session.paused".*webhook raw/),
    })
  })
})

describe('pf-sim webhook (exit 0 when the last answer is 2xx, 1 otherwise)', () => {
  it('send: a signed event with realistic data and field overrides, one attempt; --json for scripts', async () => {
    const run = await pfSim(
      'webhook',
      'send',
      'purchase.failed',
      '--url',
      url,
      '--secret',
      'whsec_x',
      '--set',
      'required=500',
      '--json',
    )
    expect(run.code).toBe(0)
    const outcome = JSON.parse(run.stdout) as { state: string; webhookId: string; attempts: unknown[] }
    expect(outcome).toMatchObject({
      state: 'delivered',
      attempts: [{ attempt: 1, status: 200, state: 'delivered' }],
    })
    expect(received.at(-1)).toMatchObject({
      event: 'purchase.failed',
      webhookId: outcome.webhookId,
      data: { required: 500, errorCode: 'INSUFFICIENT_BALANCE' },
    })
    expect(outcome.webhookId).toMatch(/^wh_/)
  })

  it('replay re-sends the same id and body', async () => {
    const sent = JSON.parse(
      (await pfSim('webhook', 'send', 'session.ended', '--url', url, '--secret', 'whsec_x', '--json')).stdout,
    ) as { webhookId: string }
    const replay = await pfSim('webhook', 'replay', sent.webhookId, '--url', url, '--secret', 'whsec_x')
    expect(replay).toMatchObject({ code: 0, stdout: expect.stringMatching(/delivered\n$/) })
    expect(received.filter((e) => e.webhookId === sent.webhookId)).toHaveLength(2)
  })

  it('shows a non-2xx answer with its body, one attempt by default (--no-retry its name), exit 1', async () => {
    for (const extra of [[], ['--no-retry']]) {
      const run = await pfSim(
        'webhook',
        'send',
        'session.created',
        '--url',
        url,
        '--secret',
        'wrong',
        ...extra,
      )
      expect(run.code).toBe(1)
      expect(run.stdout).toMatch(
        /^POST .*\nattempt 1 {2}401 {2}failed {2}\{"error":"invalid X-PF-Signature signature"\}\n$/,
      )
      expect(run.stderr).toBe('pf-sim: not delivered: the receiver answered 401\n')
    }
  })

  it('names the address and the cause when nothing listens', async () => {
    const run = await pfSim('webhook', 'send', 'session.created', '--url', deadUrl, '--secret', 'x')
    const address = new URL(deadUrl).host
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(`attempt 1  ---  failed  ECONNREFUSED ${address}`)
    expect(run.stderr).toMatch(new RegExp(`^pf-sim: not delivered: ECONNREFUSED ${address}`))
  })

  it('--attempts N retries up to N tries, and exits 0 once one is answered 2xx', async () => {
    flakyCalls = 0
    const run = await pfSim(
      'webhook',
      'raw',
      '--url',
      flakyUrl,
      '--secret',
      'x',
      '--body',
      '{}',
      '--attempts',
      '4',
      '--time-scale',
      '1000000',
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(
      /attempt 1 {2}503 {2}retry pending {2}\{"error":"try later"\} {2}next try in 0 ms\nattempt 2 {2}503[^\n]*\nattempt 3 {2}200 {2}delivered\ndelivered\n$/,
    )
    expect(flakyCalls).toBe(3)
  })

  it('--schedule platform makes the platform six tries (delays time-scaled), then failed, exit 1', async () => {
    const run = await pfSim(
      'webhook',
      'raw',
      '--url',
      url,
      '--secret',
      'whsec_x',
      '--body',
      '{"event":"x"}',
      '--signature',
      'bad',
      '--schedule',
      'platform',
      '--time-scale',
      '1000000',
    )
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(
      /attempt 1 {2}401 {2}retry pending {2}\{"error"[^\n]* {2}next try in 0 ms[\s\S]*attempt 6 {2}401 {2}failed/,
    )
    expect(run.stdout).not.toMatch(/attempt 7/)
  })
})
