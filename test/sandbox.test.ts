import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import { buildIfChanged, changedPackages } from '../scripts/sandbox/build-if-changed'
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

  it('reads --port-offset (fixed ports only), --lists sample|reference and --traces', () => {
    expect(parseSandboxArgs(['--port-offset', '100', '--lists', 'reference', '--traces'])).toMatchObject({
      ports: 'fixed',
      portOffset: 100,
      lists: 'reference',
      traces: true,
    })
    expect(() => parseSandboxArgs(['--port-offset', '0'])).toThrow(/--port-offset takes a whole number/)
    expect(() => parseSandboxArgs(['--port-offset', '9', '--ports', 'ephemeral'])).toThrow(
      /goes without --ports ephemeral/,
    )
    expect(() => parseSandboxArgs(['--lists', 'all'])).toThrow(/--lists takes sample or reference/)
  })

  it('refuses an unknown style or flag with the usage line', () => {
    expect(() => parseSandboxArgs(['--idp', 'okta'])).toThrow(
      /--idp takes realm, tenant or realm,tenant[\s\S]*usage:/,
    )
    expect(() => parseSandboxArgs(['--port', '1'])).toThrow(/usage: pnpm start/)
  })
})

describe('pnpm start builds only what changed', () => {
  // A workspace of its own, built by pnpm as the sandbox builds: each package's build script (build.cjs) writes
  // its dist from its source (declarations: the source's `export type` lines) and records that it ran.
  function workspace() {
    const dir = mkdtempSync(join(tmpdir(), 'pf-build-'))
    writeFileSync(join(dir, 'pnpm-workspace.yaml'), "packages: ['packages/*', 'services/*']\n")
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ws', private: true }))
    writeFileSync(
      join(dir, 'build.cjs'),
      `const fs = require('fs'), path = require('path')
const source = fs.readFileSync('src/index.ts', 'utf8')
fs.mkdirSync('dist', { recursive: true })
fs.writeFileSync('dist/index.js', source)
if (fs.readFileSync('tsup.config.ts', 'utf8').includes('dts:'))
  fs.writeFileSync('dist/index.d.ts', source.split('\\n').filter((l) => l.startsWith('export type')).join('\\n'))
fs.appendFileSync(path.join(${JSON.stringify(dir)}, 'built.log'), require(path.resolve('package.json')).name + '\\n')
`,
    )
    const pkg = (folder: string, name: string, source: string, deps: object, dts: boolean) => {
      mkdirSync(join(dir, folder, 'src'), { recursive: true })
      writeFileSync(join(dir, folder, 'src', 'index.ts'), source)
      writeFileSync(join(dir, folder, 'tsup.config.ts'), dts ? '{ dts: true }' : '{}')
      writeFileSync(
        join(dir, folder, 'package.json'),
        JSON.stringify({ name, scripts: { build: 'node ../../build.cjs' }, ...deps }),
      )
    }
    // @pf/signing: a library; @pf/kit loads it at run time and re-exports its types; @pf/svc loads it at run
    // time and emits no declarations (the services); @pf/bundler bundles it (a devDependency it imports).
    pkg('packages/signing', '@pf/signing', 'export type Key = string\nexport const sign = 1\n', {}, true)
    const uses = "import { sign } from '@pf/signing'\nexport type Re = Key\n"
    pkg('packages/kit', '@pf/kit', uses, { dependencies: { '@pf/signing': 'workspace:*' } }, true)
    pkg('services/svc', '@pf/svc', uses, { dependencies: { '@pf/signing': 'workspace:*' } }, false)
    pkg('services/bundler', '@pf/bundler', uses, { devDependencies: { '@pf/signing': 'workspace:*' } }, false)
    pkg(
      'services/other',
      '@pf/other',
      'export const x = 1\n',
      { devDependencies: { '@pf/signing': 'workspace:*' } },
      false,
    )
    execFileSync('pnpm', ['-r', 'run', 'build'], { cwd: dir, stdio: 'ignore' })
    writeFileSync(join(dir, 'built.log'), '')
    // Sources older than what was built from them.
    for (const folder of [
      'packages/signing',
      'packages/kit',
      'services/svc',
      'services/bundler',
      'services/other',
    ]) {
      for (const file of ['package.json', 'tsup.config.ts', 'src/index.ts']) at(dir, folder, file, 1000)
      for (const file of readdirSync(join(dir, folder, 'dist'))) at(dir, folder, `dist/${file}`, 2000)
    }
    return dir
  }
  const at = (dir: string, folder: string, file: string, seconds: number) =>
    utimesSync(join(dir, folder, file), seconds, seconds)
  const quiet = { print: () => {} }
  const builtIn = (dir: string) =>
    readFileSync(join(dir, 'built.log'), 'utf8').trim().split('\n').filter(Boolean)

  it('is fresh when every dist is newer than its sources', () => {
    const dir = workspace()
    expect(changedPackages(dir)).toEqual([])
    expect(buildIfChanged({ root: dir, ...quiet })).toEqual({ built: [], kept: [] })
    expect(builtIn(dir)).toEqual([])
  })

  it('a touched service file rebuilds that service alone, and names it and the file', () => {
    const dir = workspace()
    at(dir, 'services/svc', 'src/index.ts', 3000)
    expect(changedPackages(dir)).toEqual([
      { name: '@pf/svc', dir: 'services/svc', changed: 'services/svc/src/index.ts' },
    ])
    expect(buildIfChanged({ root: dir, ...quiet })).toEqual({
      built: [{ name: '@pf/svc', why: 'services/svc/src/index.ts changed' }],
      kept: [],
    })
    expect(builtIn(dir)).toEqual(['@pf/svc'])
  })

  it('a library whose declarations did not change: only what bundles it is rebuilt, the others are kept with why', () => {
    const dir = workspace()
    writeFileSync(
      join(dir, 'packages/signing/src/index.ts'),
      'export type Key = string\nexport const sign = 2\n',
    )
    const report = buildIfChanged({ root: dir, ...quiet })
    expect(builtIn(dir).sort()).toEqual(['@pf/bundler', '@pf/signing'])
    expect(report).toEqual({
      built: [
        { name: '@pf/signing', why: 'packages/signing/src/index.ts changed' },
        { name: '@pf/bundler', why: 'it bundles @pf/signing' },
      ],
      kept: expect.arrayContaining([
        { name: '@pf/kit', why: 'it bundles no @pf/signing, whose declarations are unchanged' },
        { name: '@pf/svc', why: 'it loads @pf/signing at run time and emits no declarations' },
        { name: '@pf/other', why: 'its source imports no @pf/signing' },
      ]),
    })
    expect(report.kept).toHaveLength(3)
  })

  it('a library whose declarations changed: what emits declarations from them is rebuilt too, a service is not', () => {
    const dir = workspace()
    writeFileSync(
      join(dir, 'packages/signing/src/index.ts'),
      'export type Key = number\nexport const sign = 1\n',
    )
    const report = buildIfChanged({ root: dir, ...quiet })
    expect(builtIn(dir).sort()).toEqual(['@pf/bundler', '@pf/kit', '@pf/signing'])
    expect(report.built).toEqual(
      expect.arrayContaining([{ name: '@pf/kit', why: "@pf/signing's declarations changed" }]),
    )
    expect(report.kept.map(({ name }) => name).sort()).toEqual(['@pf/other', '@pf/svc'])
  })

  it('a missing dist is named and built', () => {
    const dir = workspace()
    execFileSync('rm', ['-r', join(dir, 'services/other/dist')])
    expect(buildIfChanged({ root: dir, ...quiet }).built).toEqual([
      { name: '@pf/other', why: 'dist/ is missing' },
    ])
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
      env: {
        ...process.env,
        REDIS_URL: redis.url,
        SANDBOX_DIR: mkdtempSync(join(tmpdir(), 'pf-sandbox-home-')),
      },
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
  })

  it('prints every address (worker included) and leaves no service behind when it is SIGKILLed', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pf-sandbox-home-'))
    const sandbox = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/sandbox/main.ts', '--', '--idp', 'realm,tenant', '--ports', 'ephemeral'],
      {
        cwd: root,
        env: { ...process.env, REDIS_URL: redis.url, SANDBOX_DIR: home },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    const lines: string[] = []
    const banner = createInterface({ input: sandbox.stdout })
    banner.on('line', (line) => lines.push(line))
    while (!lines.some((line) => line.includes('curl -s -X POST'))) await once(banner, 'line')
    const text = lines.join('\n')
    expect(text).toMatch(/webhook worker {4}http:\/\/127\.0\.0\.1:\d+\/metrics/)
    expect(text).not.toContain('undefined')
    expect(text).toContain(`Redis             ${redis.url}`)
    // Its own folder and queue on free ports, named; the dead-letter command from the root finds them.
    const prefix = `{pf-sandbox-ephemeral-${sandbox.pid}}`
    expect(text).toContain(`queue prefix ${prefix}`)
    expect(text).toMatch(new RegExp(`^  folder {12}${home}/ephemeral-${sandbox.pid} `, 'm'))
    expect(text).toContain(`SANDBOX_DIR=${home} pnpm dead-letters list`)
    expect(text).toMatch(/^ {2}build {13}(up to date|built @pf\/)/m)

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
  })
})
