import { loadOfacCsv } from '../src/datasets/load-ofac-csv'
import { SanctionsIndex } from '../src/search/sanctions-index'
import { seededRandom } from '../scripts/sample-generator'
import { locateSharedDir } from '@pf/testkit'
import { join } from 'node:path'
import { percentile, round, time } from './stats'

/** A listed name as a screener might type it: reordered, case-folded, sometimes with a typo. */
function screeningQuery(name: string, random: () => number): string {
  let query = name.includes(',') ? name.split(',').reverse().join(' ').trim() : name
  if (random() < 0.5 && query.length > 4) {
    const at = 1 + Math.floor(random() * (query.length - 2))
    query = query.slice(0, at) + query.slice(at + 1)
  }
  return random() < 0.5 ? query.toLowerCase() : query
}

/**
 * Sanctions screening on the 2024 SDN list (14,965 entries): p50/p95 per query with the index, and the same
 * queries by a linear Jaro-Winkler scan of every name, in the same run.
 */
export function benchSanctions() {
  const entries = loadOfacCsv(join(locateSharedDir(__dirname), 'data', 'ofac-sdn-2024'))
  let index!: SanctionsIndex
  const buildMs = time(() => (index = SanctionsIndex.build(entries)))
  const random = seededRandom(7)
  const queries = Array.from({ length: 1000 }, () =>
    screeningQuery(entries[Math.floor(random() * entries.length)]!.name, random),
  )
  for (const name of queries.slice(0, 100)) index.search({ name, threshold: 85, limit: 20 }) // warm-up
  const indexed = queries.map((name) => time(() => index.search({ name, threshold: 85, limit: 20 })))
  const sample = queries.slice(0, 100)
  const linear = sample.map((name) => time(() => index.searchLinear({ name, threshold: 85, limit: 20 })))
  const sampleIndexed = sample.map((_, i) => indexed[i] as number)
  // Recall of the scan's hits (same id and score) at threshold 85, on the same queries.
  let expected = 0
  let found = 0
  for (const name of sample) {
    const scan = new Set(
      index.searchLinear({ name, threshold: 85, limit: 5000 }).map((r) => `${r.id}:${r.score}`),
    )
    expected += scan.size
    for (const hit of index.search({ name, threshold: 85, limit: 5000 }))
      if (scan.has(`${hit.id}:${hit.score}`)) found += 1
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length
  return [
    {
      benchmark: `sanctions index build (${entries.length} entries, ${index.nameCount} names)`,
      metric: 'ms',
      value: Math.round(buildMs),
      target: '',
    },
    {
      benchmark: 'sanctions query p50 (1000 screening queries)',
      metric: 'ms',
      value: round(percentile(indexed, 50), 3),
      target: '',
    },
    {
      benchmark: 'sanctions query p95',
      metric: 'ms',
      value: round(percentile(indexed, 95), 3),
      target: '<= 10',
    },
    {
      benchmark: 'naive scan scoring every name and alias with scoreName, mean (100 queries)',
      metric: 'ms',
      value: round(mean(linear)),
      target: '',
    },
    {
      benchmark: "recall of the scan's hits at threshold 85 (same queries)",
      metric: '%',
      value: round((100 * found) / Math.max(1, expected), 2),
      target: '>= 99',
    },
    {
      benchmark: 'index speed-up over the linear scan (same queries)',
      metric: 'x',
      value: Math.round(mean(linear) / mean(sampleIndexed)),
      target: '>= 100',
    },
  ]
}
