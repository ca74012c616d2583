import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import { buildFilters, changedPackages } from '../scripts/sandbox/build-if-changed'
import { parseSandboxArgs } from '../scripts/sandbox/parse-sandbox-args'

const root = join(__dirname, '..')

describe('pnpm start arguments', () => {
  it('reads --idp with or without the `--` that pnpm 10 hands on', () => {
    const defaults = { verbose: false, host: '127.0.0.1', help: false }
    expect(parseSandboxArgs(['--idp', 'tenant'])).toEqual({ idp: ['tenant'], ports: 'fixed', ...defaults })
    expect(parseSandboxArgs(['--', '--idp', 'tenant'])).toEqual({
      idp: ['tenant'],
      ports: 'fixed',
      ...defaults,
    })
    expect(parseSandboxArgs(['--idp=realm,tenant'])).toEqual({
      idp: ['realm', 'tenant'],
      ports: 'fixed',
      ...defaults,
    })
    expect(parseSandboxArgs([])).toEqual({ idp: ['realm'], ports: 'fixed', ...defaults })
    expect(parseSandboxArgs(['--handlers', 'h.ts', '--verbose', '--ports', 'ephemeral'])).toEqual({
      idp: ['realm'],
      ports: 'ephemeral',
      handlers: 'h.ts',
      verbose: true,
      host: '127.0.0.1',
      help: false,
    })
  })

  it('pnpm start --help prints every option and exits 0; a wrong option prints the usage line on stderr, no stack, exit 2', () => {
    const help = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/sandbox/main.ts', '--', '--help'], {
      cwd: root,
      encoding: 'utf8',
    })
    expect(help.status).toBe(0)
    for (const option of [
      '--ports fixed|ephemeral',
      '--handlers FILE',
      '--verbose',
      '--host ADDRESS',
      '--idp realm|tenant',
    ])
      expect(help.stdout).toContain(option)
    const wrong = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/sandbox/main.ts', '--port', '1'], {
      cwd: root,
      encoding: 'utf8',
    })
    expect(wrong.status).toBe(2) // a usage mistake, as for every command here (issue 36)
    expect(wrong.stderr).toMatch(/^pnpm start: Unknown option '--port'\nusage: pnpm start /)
    expect(wrong.stderr).not.toMatch(/\n\s+at /)
  })

  it('reads --companies postgres (absent: in memory) and refuses another store', () => {
    expect(parseSandboxArgs(['--companies', 'postgres'])).toMatchObject({
      idp: ['realm'],
      ports: 'fixed',
      companies: 'postgres',
    })
    expect(() => parseSandboxArgs(['--companies', 'mysql'])).toThrow(/--companies takes memory or postgres/)
  })

  it('refuses an unknown style or flag with the usage line', () => {
    expect(() => parseSandboxArgs(['--idp', 'okta'])).toThrow(
      /--idp takes realm, tenant or realm,tenant[\s\S]*usage:/,
    )
    expect(() => parseSandboxArgs(['--port', '1'])).toThrow(/usage: pnpm start/)
  })
})

describe('pnpm start builds only what changed', () => {
  function workspace() {
    const dir = mkdtempSync(join(tmpdir(), 'pf-build-'))
    for (const [folder, name] of [
      ['packages/a', '@pf/a'],
      ['services/b', '@pf/b'],
      ['services/c', '@pf/c'],
    ] as const) {
      mkdirSync(join(dir, folder, 'src'), { recursive: true })
      mkdirSync(join(dir, folder, 'dist'), { recursive: true })
      for (const file of ['tsup.config.ts', 'src/index.ts', 'dist/index.js'])
        writeFileSync(join(dir, folder, file), '{}')
      writeFileSync(join(dir, folder, 'package.json'), JSON.stringify({ name }))
      for (const file of ['package.json', 'tsup.config.ts', 'src/index.ts']) at(dir, folder, file, 1000)
      at(dir, folder, 'dist/index.js', 2000)
    }
    return dir
  }
  const at = (dir: string, folder: string, file: string, seconds: number) =>
    utimesSync(join(dir, folder, file), seconds, seconds)

  it('is fresh when every dist is newer than its sources', () => {
    expect(changedPackages(workspace())).toEqual([])
  })

  it('a touched service file rebuilds that service alone, and the message names it and the file', () => {
    const dir = workspace()
    at(dir, 'services/b', 'src/index.ts', 3000)
    const changed = changedPackages(dir)
    expect(changed).toEqual([{ name: '@pf/b', dir: 'services/b', changed: 'services/b/src/index.ts' }])
    expect(buildFilters(changed)).toEqual(['--filter', '...@pf/b'])
  })

  it('a touched library rebuilds it and what depends on it (pnpm --filter ...name); a missing dist is named', () => {
    const dir = workspace()
    at(dir, 'packages/a', 'src/index.ts', 3000)
    execFileSync('rm', ['-r', join(dir, 'services/c/dist')])
    const changed = changedPackages(dir)
    expect(changed).toEqual([
      { name: '@pf/a', dir: 'packages/a', changed: 'packages/a/src/index.ts' },
      { name: '@pf/c', dir: 'services/c', changed: 'dist/ is missing' },
    ])
    expect(buildFilters(changed)).toEqual(['--filter', '...@pf/a', '--filter', '...@pf/c'])
  })
})

describe('the sandbox process (pnpm start)', () => {
  let redis: RedisHandle
  beforeAll(async () => {
    redis = await startRedis({ fallbackUrl: process.env.REDIS_URL })
  })
  afterAll(() => redis.stop())

  const alive = (pid: number) => {
    try {
      process.kill(pid, 0)
      return true
    } catch {
      return false
    }
  }

  it('Ctrl-C (SIGINT to the process group, as a terminal sends it) drains and exits 0, with no ELIFECYCLE from pnpm', async () => {
    // `pnpm start` itself: its script execs node, so no shell is there to die of the SIGINT and make pnpm
    // report a failure when the sandbox stopped cleanly.
    const started = spawn('pnpm', ['start', '--ports', 'ephemeral'], {
      cwd: root,
      detached: true,
      env: { ...process.env, REDIS_URL: redis.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    started.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = once(started, 'exit') as Promise<[number | null]>
    while (!output.includes('curl -s -X POST')) await once(started.stdout, 'data')
    process.kill(-(started.pid as number), 'SIGINT')
    const [code] = await exited
    expect(code).toBe(0)
    expect(output).toContain('\nstopped\n')
    expect(output).not.toContain('ELIFECYCLE')
  }, 60_000)

  it('prints every address (worker included) and leaves no service behind when it is SIGKILLed', async () => {
    const sandbox = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/sandbox/main.ts', '--', '--idp', 'realm,tenant', '--ports', 'ephemeral'],
      { cwd: root, env: { ...process.env, REDIS_URL: redis.url }, stdio: ['ignore', 'pipe', 'inherit'] },
    )
    const lines: string[] = []
    const banner = createInterface({ input: sandbox.stdout })
    banner.on('line', (line) => lines.push(line))
    while (!lines.some((line) => line.includes('curl -s -X POST'))) await once(banner, 'line')
    const text = lines.join('\n')
    expect(text).toMatch(/webhook worker {4}http:\/\/127\.0\.0\.1:\d+\/metrics/)
    expect(text).not.toContain('undefined')
    expect(text).toContain(`Redis             ${redis.url}`)
    expect(text).toMatch(
      /WEBHOOK_QUEUE_PREFIX='\{pf-sandbox\}' pnpm --filter @pf\/webhook-receiver dead-letters list/,
    )

    const services = execFileSync('ps', ['-o', 'pid=', '--ppid', String(sandbox.pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map(Number)
    expect(services.length).toBeGreaterThanOrEqual(5) // provider, receiver, worker, two exchanges

    sandbox.kill('SIGKILL')
    await once(sandbox, 'exit')
    // Polls until they are gone; the count is a hang guard, not a measurement.
    for (let poll = 0; poll < 400 && services.some(alive); poll += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const orphans = services.filter(alive)
    for (const pid of orphans) process.kill(pid, 'SIGKILL')
    expect(orphans).toEqual([])
  }, 60_000)
})
