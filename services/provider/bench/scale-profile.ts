// The generated multi-script names of `pnpm bench`'s scale rows at any size, to profile a query's cost
// (bench/HISTORY.md, "Scale"): CPU time per query (less sensitive to other sessions than p95), p50 / p95, the slowest queries.
//   npx esbuild bench/scale-profile.ts --bundle --platform=node --outfile=bench/bundle.cjs
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/bundle.cjs 200000
//   node bench/sdn-profile.cjs --summary /tmp/prof/<file>.cpuprofile   (sdn-profile.ts bundled the same way)
import { join } from 'node:path'
import { createLogger } from '@pf/service-kit'
import { locateReferenceData } from '@pf/testkit'
import { SanctionsLists } from '../src/lists/sanctions-lists'
import { SanctionsIndex } from '../src/screening/sanctions-index'
import { multiScriptEntries } from '../scripts/multi-script-entries'
import { screeningQueries } from '../scripts/screening-queries'
import { percentile, round, time } from './stats'

const LISTS = ['ofac-sdn-2024', 'ofac-consolidated', 'un-consolidated', 'us-csl', 'opensanctions-ftm']

async function main() {
  const count = Number(process.argv[2] ?? 200_000)
  const reference = locateReferenceData(__dirname)
  const logger = createLogger({ name: 'bench', level: 'silent' })
  const lists = await SanctionsLists.load(
    LISTS.map((list) => join(reference, list)),
    { timeoutMs: 30_000, maxBytes: 256 * 1024 * 1024, logger },
  )
  const entries = lists.current().index.entries
  let generated!: ReturnType<typeof multiScriptEntries>
  console.log(
    'generate ms',
    round(
      time(() => (generated = multiScriptEntries(entries, count, 3))),
      0,
    ),
  )
  let index!: SanctionsIndex
  console.log(
    'build ms',
    round(
      time(() => (index = SanctionsIndex.build(generated))),
      0,
    ),
  )
  const screen = (name: string) => ({ name, threshold: 85, limit: 20 })
  for (const name of screeningQueries(generated, 200, 99)) index.search(screen(name))
  const queries = screeningQueries(generated, 1000, 5)
  const cpu = process.cpuUsage()
  const times = queries.map((name) => time(() => index.search(screen(name))))
  console.log('cpu ms per query', round(process.cpuUsage(cpu).user / 1000 / queries.length, 3))
  console.log('p50 / p95 ms', round(percentile(times, 50), 3), round(percentile(times, 95), 3))
  const slow = queries.map((q, i) => [times[i] as number, q] as const).sort((a, b) => b[0] - a[0])
  console.log(slow.slice(0, 15))
}

void main()
