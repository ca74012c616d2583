// `pnpm check-setup`: each service's doctor (node services/<name>/dist/doctor.js) with this environment, one
// after the other, every line shown; exit 1 when any found a problem. Not `pnpm doctor`: pnpm runs its own
// built-in `doctor` for that, which checks pnpm and never this script.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

const SERVICES = ['provider', 'webhook-receiver', 'auth-exchange']
const USAGE = `usage: pnpm check-setup [--help]
  Runs each service's doctor (node services/<name>/dist/doctor.js) with this environment:
  ${SERVICES.join(', ')}. Each checks its settings, what
  NODE_ENV=production would refuse and what the settings point at, one line per check.
  Exit 1 when any failed. Run pnpm build first.`

const root = join(__dirname, '..')
// pnpm 10 hands a `--` on to the script: `pnpm check-setup -- --help` means `pnpm check-setup --help`.
const args = process.argv.slice(2).filter((arg) => arg !== '--')
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE)
} else if (args.length > 0) {
  process.stderr.write(`check-setup: unknown argument "${args[0]}"\n${USAGE}\n`)
  process.exitCode = 2
} else {
  let failed = false
  for (const service of SERVICES) {
    console.log(`${service}:`)
    const doctor = join(root, 'services', service, 'dist', 'doctor.js')
    if (!existsSync(doctor)) {
      console.log(`FAIL  services/${service}/dist/doctor.js is missing (fix: pnpm build)`)
      failed = true
      continue
    }
    if (spawnSync(process.execPath, [doctor], { stdio: 'inherit' }).status !== 0) failed = true
  }
  process.exitCode = failed ? 1 : 0
}
