import { execFile } from 'node:child_process'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { freePort } from '@pf/testkit'

// Issue 36: every command here as a user types it (the built CLIs, the root scripts through tsx), one rule for
// all: --help prints the usage on stdout and exits 0; a mistake, and no arguments where a command is needed,
// prints the usage on stderr and exits 2 (what pf-sim's own help says 2 means).
const root = join(__dirname, '..')
const built = (path: string) => [join(root, path)]
const script = (path: string) => ['--import', 'tsx', join(root, path)]
interface Run {
  code: number
  stdout: string
  stderr: string
}
const run = (command: string[], args: string[], env: Record<string, string> = {}) =>
  new Promise<Run>((resolve) => {
    execFile(
      process.execPath,
      [...command, ...args],
      { cwd: root, env: { PATH: process.env.PATH, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    )
  })

const COMMANDS: [string, string[]][] = [
  ['pf-sim', built('packages/testkit/dist/pf-sim.js')],
  ['pf-dead-letters', built('services/webhook-receiver/dist/dead-letters.js')],
  ['import-companies', built('services/provider/dist/import-companies.js')],
  ['the provider doctor', built('services/provider/dist/doctor.js')],
  ['the webhook receiver doctor', built('services/webhook-receiver/dist/doctor.js')],
  ['the auth exchange doctor', built('services/auth-exchange/dist/doctor.js')],
  ['pf-exchange-passwords', built('services/auth-exchange/dist/exchange-passwords.js')],
  ['pnpm check-setup', script('scripts/check-setup.ts')],
  ['pnpm env-examples', script('scripts/env-example.ts')],
  ['pnpm interface-docs', script('scripts/interface-docs.ts')],
  ['pnpm start (the sandbox)', script('scripts/sandbox/main.ts')],
  ['pnpm alert-receiver', script('scripts/alert-receiver.ts')],
  ['pnpm monitoring', script('deploy/monitoring/src/write-monitoring.ts')],
  ['the provider bench:compare', script('services/provider/bench/compare-commits.ts')],
]

describe('every command line: --help on stdout, exit 0; a usage mistake on stderr, exit 2', () => {
  it.each(COMMANDS)('%s --help prints its usage on stdout, exit 0', async (_name, command) => {
    const help = await run(command, ['--help'])
    expect(help).toMatchObject({ code: 0, stderr: '' })
    expect(help.stdout).toMatch(/^usage: /m)
  })

  it.each(COMMANDS)(
    '%s with an argument it does not take: the usage on stderr, exit 2',
    async (_name, command) => {
      const mistake = await run(command, ['--no-such-option'])
      expect(mistake).toMatchObject({ code: 2, stdout: '' })
      expect(mistake.stderr).toMatch(/usage: /)
      expect(mistake.stderr).not.toMatch(/\n\s+at /)
    },
  )

  it.each([
    ['pf-sim', built('packages/testkit/dist/pf-sim.js')],
    ['pf-dead-letters', built('services/webhook-receiver/dist/dead-letters.js')],
    ['import-companies', built('services/provider/dist/import-companies.js')],
    ['pf-exchange-passwords', built('services/auth-exchange/dist/exchange-passwords.js')],
  ])('%s without arguments: a usage mistake, the usage on stderr, exit 2', async (_name, command) => {
    const bare = await run(command, [])
    expect(bare).toMatchObject({ code: 2, stdout: '' })
    expect(bare.stderr).toMatch(/usage: /)
  })

  it('pf-dead-letters list --help prints the usage and reads no Redis', async () => {
    const help = await run(built('services/webhook-receiver/dist/dead-letters.js'), ['list', '--help'], {
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    })
    expect(help).toMatchObject({
      code: 0,
      stderr: '',
      stdout: expect.stringMatching(/^usage: pf-dead-letters list/),
    })
  })

  it('pnpm env-examples, interface-docs and monitoring --help write nothing', async () => {
    const written = [
      'services/provider/.env.example',
      'docs/provider.md',
      'deploy/monitoring/prometheus/pf-alerts.rules.yml',
    ]
    const before = written.map((path) => statSync(join(root, path)).mtimeMs)
    await run(script('scripts/env-example.ts'), ['--help'])
    await run(script('scripts/interface-docs.ts'), ['--help'])
    await run(script('deploy/monitoring/src/write-monitoring.ts'), ['--help'])
    expect(written.map((path) => statSync(join(root, path)).mtimeMs)).toEqual(before)
  })
})
