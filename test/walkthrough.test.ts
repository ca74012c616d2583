import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCleanup } from '@pf/testkit'
import { startRedis } from '@pf/testkit/redis'

// The README's walkthrough, as a newcomer follows it: its commands read from the README's own code blocks, run
// in order by one shell, the sandbox started as it says but on free ports (`--ports ephemeral`) and with a
// private Redis; each command must succeed and print what the README's `# → …` lines say it prints.
const root = join(__dirname, '..')
const cleanup = createCleanup(afterAll)
const readme = readFileSync(join(root, 'README.md'), 'utf8')

interface Step {
  command: string
  expected: string[]
  /** What the sandbox's terminal shows after it, before the next command (`# first terminal → …`). */
  thenSandboxShows: string[]
}

/**
 * The `sh` blocks of a README section, as steps: a command (continued lines joined), its `# → …` lines and its
 * `# first terminal → …` lines.
 */
function steps(markdown: string, heading: string): Step[] {
  const start = markdown.indexOf(`\n${heading}\n`)
  if (start < 0) throw new Error(`README.md has no "${heading}"`)
  const end = markdown.indexOf('\n## ', start + 1)
  const section = markdown.slice(start, end < 0 ? undefined : end)
  const lines = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap(([, block]) =>
    (block as string).replace(/\\\n\s*/g, ' ').split('\n'),
  )
  const result: Step[] = []
  for (const line of lines) {
    const expected = /^# → (.*)$/.exec(line)
    const sandboxShows = /^# first terminal → (.*)$/.exec(line)
    if (expected) result.at(-1)?.expected.push(expected[1] as string)
    else if (sandboxShows) result.at(-1)?.thenSandboxShows.push(sandboxShows[1] as string)
    else if (line.trim() !== '' && !line.startsWith('#'))
      result.push({ command: line.replace(/\s+#.*$/, ''), expected: [], thenSandboxShows: [] })
  }
  return result
}

const walkthrough = steps(readme, '## Walkthrough')

/** `…` matches anything; runs of spaces (pf-sim aligns its columns) count as one. */
const matcher = (expected: string) =>
  new RegExp(
    expected
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'))
      .join('.*'),
  )

/** What the sandbox's banner says: each address by its label, the Redis URL and the queue prefix. */
function bannerAddresses(banner: string) {
  const url = (label: string) => {
    const found = new RegExp(`^\\s+${label.replace(/[()]/g, '\\$&')}\\s+(\\S+)`, 'm').exec(banner)
    if (!found) throw new Error(`the banner shows no ${label}:\n${banner}`)
    return found[1] as string
  }
  return {
    receiver: new URL(url('webhook receiver')).origin,
    provider: url('provider'),
    exchange: url('auth exchange'),
    s3: url('S3 (s3rver)'),
    issuer: new URL(url('marketplace JWT')).origin,
    redis: url('Redis'),
    prefix: (/queue prefix (\S+)/.exec(banner) ?? [])[1] as string,
  }
}

/** The README's commands and what they print name the sandbox's fixed ports and queue; this one has its own. */
function onTheseAddresses(command: string, at: ReturnType<typeof bannerAddresses>): string {
  return command
    .replaceAll('http://127.0.0.1:3001', at.receiver)
    .replaceAll('http://127.0.0.1:3002', at.provider)
    .replaceAll('http://127.0.0.1:3003', at.exchange)
    .replaceAll('http://127.0.0.1:4569', at.s3)
    .replaceAll('http://127.0.0.1:4200', at.issuer)
    .replaceAll('redis://127.0.0.1:6379', at.redis)
    .replaceAll('{pf-sandbox}', at.prefix)
}

describe('the README walkthrough, followed top to bottom', () => {
  let sandbox: ChildProcess
  let output = ''
  const exited = () => once(sandbox, 'exit') as Promise<[number | null]>

  it('starts with pnpm install and pnpm start, and shows each interface', () => {
    expect(walkthrough.slice(0, 2).map((step) => step.command)).toEqual(['pnpm install', 'pnpm start'])
    const commands = walkthrough.map((step) => step.command).join('\n')
    for (const shown of ['pf-sim webhook send', 'pf-sim query', '/auth/exchange'])
      expect(commands).toContain(shown)
  })

  it('the quick start at the top is the walkthrough in short: each of its commands is one of the walkthrough', () => {
    const quickStart = /^# .*\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? ''
    const commands = quickStart
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => line.replace(/\s+#.*$/, ''))
    expect(commands).toEqual(expect.arrayContaining(['pnpm install', 'pnpm start']))
    expect(walkthrough.map((step) => step.command)).toEqual(expect.arrayContaining(commands))
  })

  describe('run in order against pnpm start on free ports, in one shell: each succeeds and prints what the README shows', () => {
    const [install, start, ...rest] = walkthrough
    let at: ReturnType<typeof bannerAddresses>
    let shell: ChildProcess
    let shellOutput = ''
    // Where this sandbox keeps its record: `pnpm dead-letters` finds it alone, not the other suites' sandboxes.
    const sandboxDir = mkdtempSync(join(tmpdir(), 'pf-walkthrough-'))

    beforeAll(async () => {
      // pnpm install: this checkout is installed (test/install.test.ts installs a fresh one).
      expect(install?.command).toBe('pnpm install')
      const redis = cleanup.add(await startRedis(), (r) => r.stop())
      const [bin = '', ...args] = (start as Step).command.split(' ')
      sandbox = cleanup.add(
        spawn(bin, [...args, '--ports', 'ephemeral'], {
          cwd: root,
          detached: true,
          env: { ...process.env, REDIS_URL: redis.url, SANDBOX_DIR: sandboxDir },
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
        async (child) => {
          if (child.exitCode !== null || child.signalCode !== null) return
          process.kill(-(child.pid as number), 'SIGKILL')
          await once(child, 'exit')
        },
      )
      sandbox.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
      sandbox.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
      // A hang guard, not a budget: the hook's own timeout ends a wait that never comes.
      while (!/^\s+Redis\s+redis:\/\/.*$/m.test(output)) {
        if (sandbox.exitCode !== null) throw new Error(`pnpm start exited ${sandbox.exitCode}: ${output}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      at = bannerAddresses(output)
      // The second terminal: one shell, so that TOKEN=$(…) is there for the next command. No Redis or queue comes
      // from this test's environment: the dead-letter command finds the sandbox's.
      shell = cleanup.add(
        spawn('bash', [], {
          cwd: root,
          env: {
            ...Object.fromEntries(
              Object.entries(process.env).filter(
                ([name]) => !['REDIS_URL', 'WEBHOOK_QUEUE_PREFIX'].includes(name),
              ),
            ),
            SANDBOX_DIR: sandboxDir,
          },
          stdio: ['pipe', 'pipe', 'pipe'],
        }),
        (child) => child.kill('SIGKILL'),
      )
      shell.stdout!.on('data', (chunk: Buffer) => (shellOutput += chunk.toString()))
      shell.stdin!.write('exec 2>&1\n')
    })

    /** Runs one command in the shell; resolves with what it printed and its exit status. */
    async function run(command: string) {
      shellOutput = ''
      // A line of its own for the mark: curl's output ends without a newline.
      shell.stdin!.write(`${command}\nstatus=$?; echo; echo "@@status $status"\n`)
      for (;;) {
        const done = /^@@status (\d+)$/m.exec(shellOutput)
        if (done) return { printed: shellOutput.slice(0, done.index), status: Number(done[1]) }
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }

    it('pnpm start: the sandbox says it runs', () => {
      for (const expected of (start as Step).expected) expect(output).toMatch(matcher(expected))
    })

    it.each(rest.map((step) => [step.command, step] as const))('%s', async (_command, step) => {
      const { printed, status } = await run(onTheseAddresses(step.command, at))
      expect({ status, printed }).toEqual({ status: 0, printed: expect.any(String) })
      for (const expected of step.expected) expect(printed).toMatch(matcher(onTheseAddresses(expected, at)))
      // As a newcomer waits for the first terminal: the test's timeout is the hang guard.
      for (const shown of step.thenSandboxShows)
        while (!matcher(shown).test(output)) await new Promise((resolve) => setTimeout(resolve, 100))
    })

    it('4. Stop: Ctrl-C in the first terminal, every service drains, the sandbox says stopped', async () => {
      const stopped = exited()
      process.kill(-(sandbox.pid as number), 'SIGINT')
      expect((await stopped)[0]).toBe(0)
      expect(output).toContain('\nstopped\n')
    })
  })
})
