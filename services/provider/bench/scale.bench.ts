import { join } from 'node:path'
import { createLogger } from '@pf/service-kit'
import { locateReferenceData } from '@pf/testkit'
import { SanctionsLists } from '../src/lists/sanctions-lists'
import type { SanctionEntry } from '../src/datasets/records'
import { SanctionsIndex } from '../src/screening/sanctions-index'
import { SanctionsScan } from '../test/support-sanctions-scan'
import { multiScriptEntries } from '../scripts/multi-script-entries'
import { screeningQueries } from '../scripts/screening-queries'
import { memoryHeldMb, percentile, round, time } from './stats'

const QUERIES = 1000
const RECALL_QUERIES = 100
const GENERATED = 1_000_000
const LISTS = ['ofac-sdn-2024', 'ofac-consolidated', 'un-consolidated', 'us-csl', 'opensanctions-ftm']

const screen = (name: string, limit = 20) => ({ name, threshold: 85, limit })

/** p50 / p95 of `QUERIES` queries generated from `entries`, after 200 others warm the index up. */
function latency(index: SanctionsIndex, entries: readonly SanctionEntry[]): string {
  for (const name of screeningQueries(entries, 200, 99)) index.search(screen(name))
  const times = screeningQueries(entries, QUERIES, 5).map((name) => time(() => index.search(screen(name))))
  return `${round(percentile(times, 50), 3)} / ${round(percentile(times, 95), 3)}`
}

/** Whether the index returns the scan's hits (entry and score), over all hits of `RECALL_QUERIES` queries. */
function recall(index: SanctionsIndex, entries: readonly SanctionEntry[]): number {
  const scan = SanctionsScan.build(entries)
  let expected = 0
  let found = 0
  for (const name of screeningQueries(entries, RECALL_QUERIES, 11)) {
    const hits = new Set(scan.search(screen(name, 5000)).map((r) => `${r.id}:${r.score}`))
    expected += hits.size
    for (const hit of index.search(screen(name, 5000))) if (hits.has(`${hit.id}:${hit.score}`)) found += 1
  }
  return round((100 * found) / Math.max(1, expected), 2)
}

/**
 * Scale: every reference list loaded together as the service loads them (OFAC SDN 2024 and consolidated, UN,
 * US CSL, OpenSanctions), and a million generated names in the scripts those lists write names in.
 */
export async function benchScale() {
  const reference = locateReferenceData(__dirname)
  const logger = createLogger({ name: 'bench', level: 'silent' })
  let before = memoryHeldMb()
  const started = performance.now()
  const lists = await SanctionsLists.load(
    LISTS.map((list) => join(reference, list)),
    { timeoutMs: 30_000, maxBytes: 256 * 1024 * 1024, logger },
  )
  const loadMs = performance.now() - started
  const all = lists.current().index
  const allMb = memoryHeldMb() - before
  const entries = all.entries
  const rows = [
    {
      benchmark: `all reference lists together (${entries.length} entries, ${all.nameCount} indexed name forms): load + build / memory held`,
      metric: 'ms / MB',
      value: `${Math.round(loadMs)} / ${Math.round(allMb)}`,
      target: '',
    },
    {
      benchmark: 'screening p50 / p95 on them (1000 queries, threshold 85)',
      metric: 'ms',
      value: latency(all, entries),
      target: '',
    },
    {
      benchmark: `recall of the scan's hits on them (${RECALL_QUERIES} queries, all hits)`,
      metric: '%',
      value: recall(all, entries),
      target: '100',
    },
  ]
  const generated = multiScriptEntries(entries, GENERATED, 3)
  before = memoryHeldMb()
  let big!: SanctionsIndex
  const buildMs = time(() => (big = SanctionsIndex.build(generated)))
  rows.push(
    {
      benchmark: `${GENERATED} generated multi-script names (${big.nameCount} name forms): build / memory held`,
      metric: 'ms / MB',
      value: `${Math.round(buildMs)} / ${Math.round(memoryHeldMb() - before)}`,
      target: '',
    },
    {
      benchmark: 'screening p50 / p95 on them (1000 queries, threshold 85)',
      metric: 'ms',
      value: latency(big, generated),
      target: 'p95 <= 5',
    },
  )
  return rows
}
