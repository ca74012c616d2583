import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { locateReferenceData } from '@pf/testkit'

/** A path in the repository's data/reference/ (public data kept with its source and hash). */
export const referenceData = (...path: string[]) => join(locateReferenceData(__dirname), ...path)

/** OFAC's own Sanctions List Search scores for 170 query/result pairs (-1: OFAC returned no score). */
export function loadOfacFixtures(): { query: string; result: string; ofac: number }[] {
  const rows = parse(readFileSync(referenceData('name-matching', 'ofac_fixtures.csv')), {
    columns: true,
  }) as Record<string, string>[]
  return rows.map((row) => ({
    query: row.query_name ?? '',
    result: row.result_name ?? '',
    ofac: Number(row.ofac_score),
  }))
}
