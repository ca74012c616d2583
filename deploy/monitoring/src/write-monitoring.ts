import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { renderMonitoring } from './render-monitoring'

// `pnpm monitoring`: writes the rules, the PrometheusRule, the promtool tests and the dashboards from the source.
const root = join(__dirname, '..', '..', '..')
const USAGE = `usage: pnpm monitoring [--help]
  Writes the alert rules, the PrometheusRule, the promtool tests and the Grafana dashboards under deploy/
  from deploy/monitoring/src.`
const args = process.argv.slice(2).filter((arg) => arg !== '--') // pnpm 10 hands a `--` on
const help = args.includes('--help') || args.includes('-h')
if (help) console.log(USAGE)
else if (args.length > 0) {
  process.stderr.write(`monitoring: unknown argument "${args[0]}"\n${USAGE}\n`)
  process.exitCode = 2
}
for (const [path, text] of help || args.length > 0 ? [] : renderMonitoring()) {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
  console.log(`wrote ${path}`)
}
