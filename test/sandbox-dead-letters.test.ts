import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createCleanup } from '@pf/testkit'
import { startRedis, type RedisHandle } from '@pf/testkit/redis'

// The dead-letter demo as a newcomer runs it: `pnpm start` on free ports, `fail-me` sent with pf-sim, then
// `pnpm dead-letters` from the repository's root with no setting at all. Each sandbox here keeps its state in a
// SANDBOX_DIR of this test's own, so the other suites' sandboxes (in .sandbox/) are not "running" for it.
const root = join(__dirname, '..')
const cleanup = createCleanup(afterAll)
const home = mkdtempSync(join(tmpdir(), 'pf-sandbox-home-'))
const dir = mkdtempSync(join(tmpdir(), 'pf-dead-letters-'))
const handlersFile = join(dir, 'my-handlers.ts')
const schemas = join(root, 'packages', 'schemas', 'dist', 'index.js')
// The throw stands on line 6: the dead letter's stack must point there.
writeFileSync(
  handlersFile,
  `import { UnrecoverableWebhookError } from ${JSON.stringify(schemas)}
import type { WebhookHandlers } from '@pf/schemas'
export const handlers: WebhookHandlers = {
  'purchase.completed': async (event) => {
    if (event.data.itemId === 'not-in-the-catalogue')
      throw new UnrecoverableWebhookError('no such item in the catalogue')
  },
}
`,
)
let redis: RedisHandle
const pfSimBin = join(root, 'packages', 'testkit', 'dist', 'pf-sim.js')

/** The environment of a newcomer's second terminal: no REDIS_URL, no queue prefix; this test's SANDBOX_DIR. */
const terminal = (extra: Record<string, string> = {}) => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !['REDIS_URL', 'WEBHOOK_QUEUE_PREFIX'].includes(name)),
  ),
  SANDBOX_DIR: home,
  ...extra,
})
/** `pnpm dead-letters …` from the root, its output without the two lines pnpm prints before any script's. */
function deadLetters(args: string[], env = terminal()) {
  const result = spawnSync('pnpm', ['dead-letters', ...args], { cwd: root, env, encoding: 'utf8' })
  return { ...result, stdout: result.stdout.replace(/^\n> .*\n> .*\n\n/, '') }
}

interface Started {
  child: ChildProcess
  /** The sandbox's own process (pnpm's child): what its folder, prefix and record are named after. */
  pid: number
  lines: string[]
  until(pattern: RegExp): Promise<string>
  banner: (label: string) => string
}

async function startSandbox(args: string[] = []): Promise<Started> {
  const child = cleanup.add(
    spawn('pnpm', ['start', '--ports', 'ephemeral', ...args], {
      cwd: root,
      detached: true,
      env: { ...process.env, REDIS_URL: redis.url, SANDBOX_DIR: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
    async (sandbox) => {
      if (sandbox.exitCode !== null || sandbox.signalCode !== null) return
      process.kill(-(sandbox.pid as number), 'SIGTERM')
      await once(sandbox, 'exit')
    },
  )
  const lines: string[] = []
  let partial = ''
  const read = (chunk: Buffer) => {
    const text = partial + chunk.toString()
    const complete = text.split('\n')
    partial = complete.pop() ?? ''
    lines.push(...complete)
  }
  child.stdout!.on('data', read)
  child.stderr!.on('data', read)
  const until = async (pattern: RegExp) => {
    // A hang guard, not a budget: the test's own timeout ends a wait that never comes.
    for (;;) {
      const found = lines.find((line) => pattern.test(line))
      if (found) return found
      if (child.exitCode !== null)
        throw new Error(`pnpm start exited ${child.exitCode}:\n${lines.join('\n')}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  await until(/curl -s -X POST/)
  const banner = (label: string) => {
    const line = lines.find((l) => l.startsWith(`  ${label} `))
    if (!line) throw new Error(`the banner has no ${label}`)
    return line.slice(label.length + 2).trim()
  }
  const pid = Number(/ephemeral-(\d+)/.exec(banner('folder'))?.[1])
  return { child, pid, lines, until, banner }
}

async function send(sandbox: Started, itemId: string): Promise<string> {
  const url = sandbox.banner('webhook receiver').split(' ')[0] as string
  const { stdout } = await promisify(execFile)(process.execPath, [
    pfSimBin,
    ...['webhook', 'send', 'purchase.completed', '--url', url, '--secret', 'whsec_sandbox_secret'],
    ...['--set', `itemId=${itemId}`, '--json'],
  ])
  return (JSON.parse(stdout) as { webhookId: string }).webhookId
}

let first: Started
beforeAll(async () => {
  redis = cleanup.add(await startRedis(), (r) => r.stop())
  first = await startSandbox(['--handlers', handlersFile])
})

describe('the dead-letter demo (pnpm start, then pnpm dead-letters from the root)', () => {
  it('the sandbox gives its worker short retries, printed in the banner: fail-me is a dead letter after 4 attempts', async () => {
    expect(first.banner('retries')).toMatch(
      /^4 attempts, the wait doubling from 1000 ms \(the sandbox's WEBHOOK_JOB_ATTEMPTS \/ WEBHOOK_JOB_BACKOFF_MS; yours win\): fail-me is a dead letter within 7 s$/,
    )
    const webhookId = await send(first, 'fail-me')
    await first.until(
      new RegExp(`handler failed for good: job is in the dead letters ${webhookId} .*attempt 4`),
    )
    const retried = first.lines.filter((line) => line.includes(`handler failed: will retry ${webhookId}`))
    expect(retried).toHaveLength(3)

    const listed = deadLetters(['list'])
    expect(listed.status).toBe(0)
    const folder = first.banner('folder').split(' ')[0] as string
    const prefix = /queue prefix (\S+)/.exec(first.banner('Redis'))?.[1] as string
    expect(listed.stderr).toBe(
      `pnpm dead-letters: the sandbox of ${folder} (pid ${first.pid}): REDIS_URL=${redis.url} WEBHOOK_QUEUE_PREFIX='${prefix}'\n`,
    )
    const lines = listed.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe(`1 dead letter at ${redis.url}, queue prefix ${prefix}`)
    expect(listed.stdout).toMatch(
      new RegExp(`\\n${webhookId} +purchase\\.completed +handler_failed +4 +\\d{4}-`),
    )
    expect(listed.stdout).toMatch(/\n {2}job \S+: sandbox: a purchase\.completed of item "fail-me" always/)
    expect(lines.filter((line) => line.length > 100)).toEqual([])
  })

  it("a dead letter from UnrecoverableWebhookError shows the handler's own file and line, not the worker's", async () => {
    const webhookId = await send(first, 'not-in-the-catalogue')
    await first.until(
      new RegExp(`handler failed for good: job is in the dead letters ${webhookId} .*attempt 1`),
    )
    const shown = deadLetters(['show', webhookId])
    expect(shown.status).toBe(0)
    const stack = shown.stdout.split('  stack (last attempt)\n')[1]?.split('\n') ?? []
    expect(stack[0]).toBe('    UnrecoverableWebhookError: no such item in the catalogue')
    expect(stack[1]).toContain(`${handlersFile}:6:`)
  })

  it('two sandboxes on free ports never share a queue or a folder; with both running it lists them and exits 2', async () => {
    const second = await startSandbox()
    const folders = [first, second].map((s) => s.banner('folder').split(' ')[0] as string)
    const prefixes = [first, second].map((s) => /queue prefix (\S+)/.exec(s.banner('Redis'))?.[1] as string)
    expect(folders).toEqual([join(home, `ephemeral-${first.pid}`), join(home, `ephemeral-${second.pid}`)])
    expect(prefixes).toEqual([`{pf-sandbox-ephemeral-${first.pid}}`, `{pf-sandbox-ephemeral-${second.pid}}`])
    for (const folder of folders) expect(existsSync(join(folder, 'logs', 'webhook-worker.log'))).toBe(true)

    const several = deadLetters(['list'])
    expect(several.status).toBe(2)
    // pnpm's own ELIFECYCLE line aside, nothing on stdout: no list of any one queue.
    expect(several.stdout).not.toContain('dead letter')
    expect(several.stderr).toMatch(
      /^pnpm dead-letters: 2 sandboxes are running; choose one by its settings:\n/,
    )
    for (const [index, folder] of folders.entries()) {
      expect(several.stderr).toContain(`  ${folder}  pid ${[first, second][index]!.pid}\n`)
      expect(several.stderr).toContain(`WEBHOOK_QUEUE_PREFIX='${prefixes[index]}' pnpm dead-letters list\n`)
    }
    // The second's queue holds none of the first's dead letters.
    const chosen = deadLetters(
      ['list'],
      terminal({ WEBHOOK_QUEUE_PREFIX: prefixes[1] as string, REDIS_URL: redis.url }),
    )
    expect(chosen).toMatchObject({
      status: 0,
      stderr: '',
      stdout: `no dead letters at ${redis.url}, queue prefix ${prefixes[1]}\n`,
    })
  })

  it('with no sandbox running and no setting, it says so, and names the Redis URL and prefix it found nothing at', () => {
    const empty = mkdtempSync(join(tmpdir(), 'pf-sandbox-home-'))
    const result = deadLetters(['list'], terminal({ SANDBOX_DIR: empty, DEAD_LETTERS_TIMEOUT_MS: '500' }))
    expect(result.stderr).toMatch(/^pnpm dead-letters: no sandbox is running \(none recorded in \S+\)/)
    // Redis at the default address may or may not answer on this machine: either way it says where it looked.
    expect(`${result.stdout}${result.stderr}`).toMatch(
      /no dead letters at redis:\/\/127\.0\.0\.1:6379, queue prefix \{pf\}\n|reaching Redis at 127\.0\.0\.1:6379 \(prefix \{pf\}\)/,
    )
  })
})
