// `pnpm doctor`: each service's doctor (node services/<name>/dist/doctor.js) with this environment, one after
// the other, every line shown; exit 1 when any found a problem.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

const root = join(__dirname, '..')
let failed = false
for (const service of ['provider', 'webhook-receiver', 'auth-exchange']) {
  console.log(`${service}:`)
  const run = spawnSync(process.execPath, [join(root, 'services', service, 'dist', 'doctor.js')], {
    stdio: 'inherit',
  })
  if (run.status !== 0) failed = true
}
process.exitCode = failed ? 1 : 0
