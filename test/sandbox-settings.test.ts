import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createCleanup } from '@pf/testkit'
import { startRedis } from '@pf/testkit/redis'

// `pnpm start --lists reference --traces` with settings of the caller's own in its environment: which reach
// the services (read from each process's environment in /proc), how the banner shows them, the reference
// lists screened against across scripts, and one webhook's span tree on the sandbox's terminal.
const root = join(__dirname, '..')
const cleanup = createCleanup(afterAll)
const pfSimBin = join(root, 'packages', 'testkit', 'dist', 'pf-sim.js')
const pfSim = (...args: string[]) => promisify(execFile)(process.execPath, [pfSimBin, ...args])
const caller = {
  LOG_LEVEL: 'debug',
  OTEL_EXPORTER_OTLP_HEADERS: 'api-key=secret-of-the-caller',
  OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=laptop',
  WEBHOOK_JOB_ATTEMPTS: '3',
  WORKER_CONCURRENCY: '3',
  SANCTIONS_REFRESH_INTERVAL: '12h',
  AWS_ACCESS_KEY_ID: 'AKIA-OF-THE-CALLER',
  AWS_REGION: 'eu-north-1',
  SOME_OTHER_SETTING: 'not-for-the-services',
}
let sandbox: ChildProcess
let output = ''
const banner = (label: string) =>
  (output.split('\n').find((line) => line.startsWith(`  ${label} `)) ?? '').slice(label.length + 2).trim()
async function until(pattern: RegExp): Promise<RegExpExecArray> {
  // A hang guard, not a budget: the test's own timeout ends a wait that never comes.
  for (;;) {
    const found = pattern.exec(output)
    if (found) return found
    if (sandbox.exitCode !== null) throw new Error(`pnpm start exited ${sandbox.exitCode}:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** The services the sandbox started, each with its environment as the kernel holds it. */
function services(): Map<string, Record<string, string>> {
  const pid = Number(/ephemeral-(\d+)/.exec(banner('folder'))?.[1])
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)
  const found = new Map<string, Record<string, string>>()
  for (const child of children) {
    const cmdline = readFileSync(`/proc/${child}/cmdline`, 'utf8')
    const entry = /services\/([a-z-]+)\/dist\/([a-z-]+)\.js/.exec(cmdline)
    if (!entry) continue
    const environ = readFileSync(`/proc/${child}/environ`, 'utf8').split('\0').filter(Boolean)
    const env = Object.fromEntries(
      environ.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
    )
    found.set(`${entry[1]}/${entry[2]}`, env)
  }
  return found
}

beforeAll(async () => {
  const redis = cleanup.add(await startRedis(), (r) => r.stop())
  sandbox = cleanup.add(
    spawn('pnpm', ['start', '--ports', 'ephemeral', '--lists', 'reference', '--traces'], {
      cwd: root,
      detached: true,
      env: {
        ...process.env,
        ...caller,
        REDIS_URL: redis.url,
        SANDBOX_DIR: mkdtempSync(join(tmpdir(), 'pf-sandbox-home-')),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
    async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return
      process.kill(-(child.pid as number), 'SIGTERM')
      await once(child, 'exit')
    },
  )
  sandbox.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  sandbox.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  await until(/curl -s -X POST/)
})

describe("the sandbox passes the caller's settings by name", () => {
  it('hands the allowed settings to every service, and nothing else of the environment: no AWS_*, no other name', () => {
    const running = services()
    expect([...running.keys()].sort()).toEqual([
      'auth-exchange/main',
      'provider/main',
      'webhook-receiver/main',
      'webhook-receiver/worker',
    ])
    for (const [name, env] of running) {
      expect({ name, ...env }).toMatchObject({
        name,
        LOG_LEVEL: 'debug',
        OTEL_EXPORTER_OTLP_HEADERS: caller.OTEL_EXPORTER_OTLP_HEADERS,
        OTEL_RESOURCE_ATTRIBUTES: caller.OTEL_RESOURCE_ATTRIBUTES,
        WEBHOOK_JOB_ATTEMPTS: '3',
        WORKER_CONCURRENCY: '3',
        SANCTIONS_REFRESH_INTERVAL: '12h',
      })
      expect(env.SOME_OTHER_SETTING).toBeUndefined()
      expect(env.AWS_REGION).toBeUndefined()
      // The provider's S3 credentials are the sandbox's own S3's, never the caller's.
      expect(env.AWS_ACCESS_KEY_ID).toBe(name === 'provider/main' ? 'S3RVER' : undefined)
    }
    expect(running.get('provider/main')?.REDIS_URL).toBeUndefined()
  })

  it("shows them in the banner, secrets redacted; the caller's retry settings win over the sandbox's", () => {
    expect(banner('your settings')).toBe(
      'LOG_LEVEL=debug OTEL_EXPORTER_OTLP_HEADERS=*** OTEL_RESOURCE_ATTRIBUTES=deployment.environment=laptop SANCTIONS_REFRESH_INTERVAL=12h WEBHOOK_JOB_ATTEMPTS=3 WORKER_CONCURRENCY=3 (to every service)',
    )
    expect(output).not.toContain('secret-of-the-caller')
    expect(banner('retries')).toBe(
      '3 attempts, the wait doubling from 1000 ms (yours: WEBHOOK_JOB_ATTEMPTS): fail-me is a dead letter within 3 s',
    )
  })
})

describe('--lists reference', () => {
  it('loads every list of data/reference/ and the sample, and screens a name in its original script', async () => {
    expect(banner('sanctions lists')).toBe(
      'un-sc-consolidated 1003, us-csl 115, bis-dpl 546, opensanctions-ftm 9, zala 17, ofac-sdn 14965, ofac-consolidated 442, sanctions 300',
    )
    const provider = banner('provider').split(' ')[0] as string
    const { stdout } = await pfSim(
      'query',
      'sanctions',
      '--provider',
      provider,
      '--param',
      'name=صدام حسين التكريتي',
      '--json',
    )
    const { results } = JSON.parse(stdout) as { results: { name: string; list?: string; source?: string }[] }
    expect(results[0]).toMatchObject({ name: expect.stringMatching(/Saddam Hussein/i) })
  })
})

describe('--traces', () => {
  it("prints one webhook's span tree on the terminal: receiver, queue, worker", async () => {
    const url = banner('webhook receiver').split(' ')[0] as string
    const sent = await pfSim(
      'webhook',
      'send',
      'session.created',
      '--url',
      url,
      '--secret',
      'whsec_sandbox_secret',
      '--json',
    )
    const { webhookId } = JSON.parse(sent.stdout) as { webhookId: string }
    const [tree] = await until(
      new RegExp(
        `\\[trace [0-9a-f]{32}\\]\\n {2}webhook\\.receive \\(webhook-receiver\\) .*webhook_id=${webhookId}.*(\\n {4,}.*)+`,
      ),
    )
    expect(tree.split('\n').map((line) => /^( *)(\S+) \((\S+)\)/.exec(line)?.slice(1, 4).join(''))).toEqual([
      undefined,
      '  webhook.receivewebhook-receiver',
      '    webhook.enqueuewebhook-receiver',
      '      webhook.processwebhook-worker',
    ])
  })
})
