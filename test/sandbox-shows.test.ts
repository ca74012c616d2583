import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { createCleanup } from '@pf/testkit'
import { startRedis } from '@pf/testkit/redis'
import { describeBusyPort } from '../scripts/sandbox/describe-busy-port'

// `pnpm start` as a newcomer runs it: what happens is shown on the terminal, every log is kept in
// its folder's logs/, your handlers run in the worker and reload when the file changes, `fail-me` fails.
const root = join(__dirname, '..')
const pfSimBin = join(root, 'packages', 'testkit', 'dist', 'pf-sim.js')
const pfSim = (...args: string[]) =>
  promisify(execFile)(process.execPath, [pfSimBin, ...args]).catch((error: { stdout: string }) => error)

const cleanup = createCleanup(afterAll)
const dir = mkdtempSync(join(tmpdir(), 'pf-sandbox-shows-'))
const handlersFile = join(dir, 'my-handlers.ts')
const handlersSource = (version: string) => `import type { WebhookHandlers } from '@pf/schemas'
export const handlers: WebhookHandlers = {
  'session.created': async (event, { logger }) => {
    const userId: string = String(event.data.userId)
    logger.info({ webhookId: event.webhookId, userId }, 'my handler ${version}')
  },
}
`
let sandbox: ChildProcess
const lines: string[] = []
async function until(pattern: RegExp): Promise<string> {
  // A hang guard, not a budget: the test's own timeout ends a wait that never comes.
  for (;;) {
    const found = lines.find((line) => pattern.test(line))
    if (found) return found
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
const address = (label: string) => {
  const line = lines.find((l) => l.trimStart().startsWith(label)) as string
  return /http:\/\/[0-9.]+:\d+(\/webhooks\/pf)?/.exec(line)?.[0] as string
}

beforeAll(async () => {
  writeFileSync(handlersFile, handlersSource('v1'))
  const redis = cleanup.add(await startRedis(), (r) => r.stop())
  sandbox = cleanup.add(
    spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/sandbox/main.ts', '--ports', 'ephemeral', '--handlers', handlersFile],
      {
        cwd: root,
        env: { ...process.env, REDIS_URL: redis.url, SANDBOX_DIR: join(dir, 'sandbox') },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    ),
    async (child) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL')
        await once(child, 'exit')
      }
    },
  )
  createInterface({ input: sandbox.stdout! }).on('line', (line) => lines.push(line))
  await until(/curl -s -X POST/)
})

describe('the sandbox shows what happens', () => {
  it('runs your TypeScript handlers, shows each handled event with its key fields, and keeps every log', async () => {
    expect(lines.join('\n')).toContain(`your handlers: ${handlersFile}`)
    const sent = (await pfSim(
      'webhook',
      'send',
      'session.created',
      '--url',
      address('webhook receiver'),
      '--secret',
      'whsec_sandbox_secret',
      '--json',
    )) as { stdout: string }
    const { webhookId } = JSON.parse(sent.stdout) as { webhookId: string }
    expect(await until(/my handler v1/)).toBe(
      `[webhook worker] my handler v1 ${webhookId}  userId=user_test_1`,
    )
    // The built-ins still handle the kinds your file leaves out.
    await pfSim(
      'webhook',
      'send',
      'session.ended',
      '--url',
      address('webhook receiver'),
      '--secret',
      'whsec_sandbox_secret',
    )
    expect(await until(/session\.ended wh_/)).toMatch(/sessionId=sess_test_1 reason=expired/)
    // In the sandbox's own folder, which the banner names.
    const folder = /^ {2}folder +(\S+)/.exec(
      lines.find((l) => l.startsWith('  folder ')) ?? '',
    )?.[1] as string
    const log = readFileSync(join(folder, 'logs', 'webhook-worker.log'), 'utf8')
    expect(log).toContain(`"webhookId":"${webhookId}"`)
  })

  it('binds every service to 127.0.0.1 by default (it runs demo secrets)', () => {
    for (const label of ['provider', 'webhook receiver', 'webhook worker', 'auth exchange']) {
      const { port } = new URL(address(label))
      const listening = spawnSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' }).stdout
      expect(listening).toMatch(new RegExp(`127\\.0\\.0\\.1:${port}\\b`))
    }
  })

  it('serves bull-board, read-only, at the address and with the token the banner prints', async () => {
    const line = lines.find((l) => l.trimStart().startsWith('bull-board')) as string
    const [, url, token] =
      /(http:\S+\/admin\/queues) +user any, password (\S+) \(read-only\)/.exec(line) ?? []
    const auth = { authorization: `Basic ${Buffer.from(`pf:${token}`).toString('base64')}` }
    expect((await fetch(url as string, { headers: auth })).status).toBe(200)
    expect((await fetch(url as string)).status).toBe(401)
  })

  it('shows every webhook the receiver refuses, with its status and reason', async () => {
    const url = address('webhook receiver')
    await pfSim('webhook', 'send', 'session.created', '--url', url, '--secret', 'not-the-secret')
    expect(await until(/refused 401/)).toBe(
      '[webhook receiver] refused 401 signature: invalid X-PF-Signature signature',
    )
    await pfSim('webhook', 'raw', '--url', url, '--secret', 'whsec_sandbox_secret', '--body', 'not json')
    expect(await until(/refused 400/)).toBe(
      '[webhook receiver] refused 400 invalid_json: request body is not valid JSON',
    )
  })

  it('fails a purchase.completed of item fail-me in the sandbox worker, and shows the failure', async () => {
    await pfSim(
      'webhook',
      'send',
      'purchase.completed',
      '--url',
      address('webhook receiver'),
      '--secret',
      'whsec_sandbox_secret',
      '--set',
      'itemId=fail-me',
    )
    expect(await until(/handler failed/)).toMatch(
      /^\[webhook worker\] handler failed: will retry wh_\S+ {2}job \S+, attempt 1: sandbox: a purchase\.completed of item "fail-me" always fails/,
    )
  })

  it('shows a failed query with its cause', async () => {
    await pfSim(
      'query',
      'companies',
      '--provider',
      address('provider'),
      '--param',
      'name=acme',
      '--delivery',
      'pf_s3_sync',
      '--bucket',
      'no-such-bucket',
      '--s3-endpoint',
      address('S3 (s3rver)'),
    )
    expect(await until(/\[provider\] query/)).toMatch(
      /^\[provider\] query q-\S+ failed: delivery failed: The specified bucket does not exist$/,
    )
  })

  it('drains and restarts the worker when the handlers file changes', async () => {
    writeFileSync(handlersFile, handlersSource('v2'))
    await until(/worker restarted with your handlers/)
    await pfSim(
      'webhook',
      'send',
      'session.created',
      '--url',
      address('webhook receiver'),
      '--secret',
      'whsec_sandbox_secret',
    )
    expect(await until(/my handler v2/)).toMatch(/userId=user_test_1/)
  })

  it('stops cleanly on SIGTERM, as on Ctrl-C: each service drains, exit 0', async () => {
    sandbox.kill('SIGTERM')
    const [code] = (await once(sandbox, 'exit')) as [number | null]
    expect(code).toBe(0)
    expect(lines).toContain('stopped')
  })
})

describe('a busy port', () => {
  it('names the port and the process that holds it, and suggests --ports ephemeral', async () => {
    const server = createServer().listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as { port: number }
    try {
      const message = describeBusyPort(
        new Error(
          `dist/main.js exited with code 1 before it was ready\nlisten EADDRINUSE: address already in use 0.0.0.0:${port}`,
        ),
      )
      expect(message).toMatch(
        new RegExp(`^port ${port} is in use \\(by node, pid ${process.pid}\\): .*--ports ephemeral$`),
      )
      expect(describeBusyPort(new Error('something else'))).toBeUndefined()
    } finally {
      server.close()
    }
  })
})
