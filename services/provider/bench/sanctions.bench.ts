import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { locateReferenceData } from '@pf/testkit'
import type { SanctionEntry } from '../src/datasets/records'
import { loadOfacCsv } from '../src/datasets/load-ofac-csv'
import { scoreName } from '../src/matching/name-score'
import { prepareListedName, prepareQueryName } from '../src/matching/prepare-name'
import { SanctionsIndex, type SanctionsQuery } from '../src/screening/sanctions-index'
import { SanctionsScan } from '../test/support-sanctions-scan'
import { generatedEntries, screeningQueries } from '../scripts/screening-queries'
import { median, memoryHeldMb, percentile, round, time } from './stats'

const ROUNDS = 3
const QUERIES = 1000
/** Every tenth query is also run by the full scan: the speed-up is measured on the same queries. */
const SAMPLE_EVERY = 10
const RECALL_QUERIES = 300
const GENERATED = 1_000_000

const screen = (name: string, limit = 20): SanctionsQuery => ({ name, threshold: 85, limit })
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length
const sample = <T>(values: T[]) => values.filter((_, i) => i % SAMPLE_EVERY === 0)
const ms = (value: number) => round(value, 3)

/** An index built while the memory it holds is measured. */
function buildMeasured(entries: readonly SanctionEntry[], partCacheSize?: number) {
  const before = memoryHeldMb()
  let index!: SanctionsIndex
  const buildMs = time(() => (index = SanctionsIndex.build(entries, { partCacheSize })))
  return { index, buildMs, memoryMb: memoryHeldMb() - before }
}

/**
 * Per-query times of each side in its own loop, as a server runs queries back to back, alternating the sides
 * over rounds and keeping each query's median. Each round screens with a fresh index, so its part cache knows
 * only what that round's earlier queries taught it (never the same query twice).
 */
function alternate(entries: readonly SanctionEntry[], queries: string[], scan: SanctionsScan) {
  const indexRounds: number[][] = []
  const scanRounds: number[][] = []
  const coldRounds: number[][] = []
  const warmUp = screeningQueries(entries, 200, 99)
  for (let round = 0; round < ROUNDS; round += 1) {
    const { index } = buildMeasured(entries)
    const cold = SanctionsIndex.build(entries, { partCacheSize: 0 })
    for (const name of warmUp) {
      index.search(screen(name))
      cold.search(screen(name))
    }
    indexRounds.push(queries.map((name) => time(() => index.search(screen(name)))))
    coldRounds.push(queries.map((name) => time(() => cold.search(screen(name)))))
    scanRounds.push(sample(queries).map((name) => time(() => scan.search(screen(name)))))
  }
  const perQuery = (rounds: number[][]) => rounds[0]!.map((_, q) => median(rounds.map((r) => r[q] as number)))
  return { index: perQuery(indexRounds), cold: perQuery(coldRounds), scan: perQuery(scanRounds) }
}

/** The share of the scan's hits (entry and score) that the index returns, over all hits at threshold 85. */
function recall(index: SanctionsIndex, scan: SanctionsScan, queries: string[]) {
  let expected = 0
  let found = 0
  for (const name of queries) {
    const hits = new Set(scan.search(screen(name, 5000)).map((r) => `${r.id}:${r.score}`))
    expected += hits.size
    for (const hit of index.search(screen(name, 5000))) if (hits.has(`${hit.id}:${hit.score}`)) found += 1
  }
  return (100 * found) / Math.max(1, expected)
}

/** Pairs scored by OFAC's own Sanctions List Search (data/reference/name-matching) we land within 5 points of. */
function ofacAgreement(reference: string): { within: number; total: number } {
  const rows = readCsvPairs(join(reference, 'name-matching', 'ofac_fixtures.csv'))
  const scored = rows.filter((row) => row.ofac >= 0)
  const within = scored.filter(
    (row) => Math.abs(scoreName(prepareQueryName(row.query), prepareListedName(row.result)) - row.ofac) <= 5,
  ).length
  return { within, total: scored.length }
}

/**
 * Sanctions screening, in process, on the code as it ships (bundled): the 2024 SDN list and a million names
 * generated from its words. Queries are generated from each list (misspelt, reordered, a word missing,
 * transliterated); the full scan scores every name and alias with the same `scoreName` and no pre-filter.
 */
export function benchSanctions() {
  return [...benchSdn(), ...benchGenerated()]
}

/** The 2024 SDN list: index build, latency with and without the part cache, the scan, recall, agreement. */
export function benchSdn() {
  const reference = locateReferenceData(__dirname)
  const list = loadOfacCsv(join(reference, 'ofac-sdn-2024'))
  const { index, buildMs, memoryMb: indexMb } = buildMeasured(list)
  const scan = SanctionsScan.build(list)
  const queries = screeningQueries(list, QUERIES, 5)
  const times = alternate(list, queries, scan)
  const speedUp = mean(times.scan) / mean(sample(times.index))
  const agreement = ofacAgreement(reference)

  return [
    {
      benchmark: `sanctions index build, 2024 SDN (${list.length} entries, ${index.nameCount} names)`,
      metric: 'ms / MB',
      value: `${Math.round(buildMs)} / ${Math.round(indexMb)}`,
      target: '',
    },
    {
      benchmark: `screening p50 / p95 / mean (${QUERIES} generated queries, threshold 85, limit 20)`,
      metric: 'ms',
      value: `${ms(percentile(times.index, 50))} / ${ms(percentile(times.index, 95))} / ${ms(mean(times.index))}`,
      target: 'p95 <= 10',
    },
    {
      benchmark: 'the same without the part cache (every query part new)',
      metric: 'ms',
      value: `${ms(percentile(times.cold, 50))} / ${ms(percentile(times.cold, 95))} / ${ms(mean(times.cold))}`,
      target: '',
    },
    {
      benchmark: `full scan, every name and alias with scoreName, mean (${times.scan.length} of the queries)`,
      metric: 'ms',
      value: round(mean(times.scan), 2),
      target: '',
    },
    {
      benchmark: 'index speed-up over the full scan (same queries; without part cache)',
      metric: 'x',
      value: `${Math.round(speedUp)} (${Math.round(mean(times.scan) / mean(sample(times.cold)))})`,
      target: '>= 100',
    },
    {
      benchmark: `recall of the scan's hits at threshold 85, same scores (${RECALL_QUERIES} queries, all hits)`,
      metric: '%',
      value: round(recall(index, scan, queries.slice(0, RECALL_QUERIES)), 2),
      target: '>= 99',
    },
    {
      benchmark: "agreement with OFAC's own scores within 5 points (data/reference/name-matching)",
      metric: '%',
      value: `${round((100 * agreement.within) / agreement.total, 1)} (${agreement.within}/${agreement.total})`,
      target: '>= 96',
    },
  ]
}

/** A million names generated from the 2024 SDN list's words: build, memory, latency. */
export function benchGenerated() {
  const list = loadOfacCsv(join(locateReferenceData(__dirname), 'ofac-sdn-2024'))
  const generated = generatedEntries(list, GENERATED, 3)
  const big = buildMeasured(generated)
  const bigQueries = screeningQueries(generated, QUERIES, 8)
  for (const name of screeningQueries(generated, 200, 99)) big.index.search(screen(name))
  const bigTimes = bigQueries.map((name) => time(() => big.index.search(screen(name))))
  return [
    {
      benchmark: `sanctions index build, ${GENERATED} generated names (${big.index.nameCount} names)`,
      metric: 'ms / MB',
      value: `${Math.round(big.buildMs)} / ${Math.round(big.memoryMb)}`,
      target: '',
    },
    {
      benchmark: `screening p50 / p95 / mean on the generated names (${QUERIES} queries)`,
      metric: 'ms',
      value: `${ms(percentile(bigTimes, 50))} / ${ms(percentile(bigTimes, 95))} / ${ms(mean(bigTimes))}`,
      target: '',
    },
  ]
}

function readCsvPairs(path: string): { query: string; result: string; ofac: number }[] {
  const rows = parse(readFileSync(path), { columns: true }) as Record<string, string>[]
  return rows.map((row) => ({
    query: row.query_name ?? '',
    result: row.result_name ?? '',
    ofac: Number(row.ofac_score),
  }))
}
