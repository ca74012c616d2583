import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { renderMonitoring } from './render-monitoring'

// `pnpm monitoring`: writes the rules, the PrometheusRule, the promtool tests and the dashboards from the source.
const root = join(__dirname, '..', '..', '..')
for (const [path, text] of renderMonitoring()) {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
  console.log(`wrote ${path}`)
}
