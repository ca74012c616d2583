import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { locateSharedDir } from '@pf/testkit'

export const sharedData = (...path: string[]) => join(locateSharedDir(__dirname), 'data', ...path)

/** OFAC's own Sanctions List Search scores for 170 query/result pairs (-1: OFAC returned no score). */
export function loadOfacFixtures(): { query: string; result: string; ofac: number }[] {
  const rows = parse(readFileSync(sharedData('name-matching', 'ofac_fixtures.csv')), {
    columns: true,
  }) as Record<string, string>[]
  return rows.map((row) => ({
    query: row.query_name ?? '',
    result: row.result_name ?? '',
    ofac: Number(row.ofac_score),
  }))
}
