import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadOfacFixtures } from './support-data'

/** A fixture pair OFAC scored, and the score the provider's answer gave the hit naming its result. */
export interface AgreementRow {
  query: string
  result: string
  ofac: number
  ours: number | undefined
}

/** The fixture pairs OFAC scored (-1 in the file: no score). */
export const scoredFixtures = () => loadOfacFixtures().filter((row) => row.ofac >= 0)

/**
 * The fixture's result names as an OFAC SDN list (`sdn.csv` in a fresh folder, one entry per distinct name):
 * the folder, to load like any OFAC list.
 */
export function fixtureResultsAsOfacList(): string {
  const names = [...new Set(scoredFixtures().map((row) => row.result))]
  const dir = mkdtempSync(join(tmpdir(), 'pf-ofac-fixtures-'))
  const none = Array.from({ length: 8 }, () => '-0- ').join(',')
  const line = (name: string, i: number) => `${i + 1},"${name.replace(/"/g, '""')}",-0- ,"TEST",${none}`
  writeFileSync(join(dir, 'sdn.csv'), names.map(line).join('\n') + '\n')
  return dir
}

/** A hit as the provider answers it: its matched name, its score, and its name's score before adjustments. */
export interface AnsweredHit {
  matchedName: string
  score: number
  /** `HitExplanation` (in process) or its JSON (over HTTP): `nameScore` when adjustments lowered the hit. */
  explanation?: object
}

const nameScoreOf = (hit: AnsweredHit) =>
  (hit.explanation as { nameScore?: number } | undefined)?.nameScore ?? hit.score

/**
 * OFAC's agreement as users see it: each fixture query screened (threshold 0, every hit), the name score of the
 * hit whose matched name is the fixture's result (`explanation.nameScore` when adjustments lowered the hit,
 * else its score) compared with OFAC's: the scorer modelled on OFAC's. `answerWithin` counts the hits' own
 * scores, after the precision rules, which by design part from OFAC where it scores another person high
 * (VLADIMIR BILIY 90 for VLADIMIR PUTIN). `screen` answers a query's hits.
 */
export async function agreementThroughAnswers(
  screen: (name: string) => Promise<AnsweredHit[]>,
): Promise<{ within: number; answerWithin: number; total: number; rows: AgreementRow[] }> {
  const rows: AgreementRow[] = []
  const answers = new Map<string, AnsweredHit[]>()
  let answerWithin = 0
  for (const { query, result, ofac } of scoredFixtures()) {
    if (!answers.has(query)) answers.set(query, await screen(query))
    const hit = answers.get(query)?.find((h) => h.matchedName === result)
    rows.push({ query, result, ofac, ours: hit ? nameScoreOf(hit) : undefined })
    if (hit && Math.abs(hit.score - ofac) <= 5) answerWithin += 1
  }
  const within = rows.filter((row) => row.ours !== undefined && Math.abs(row.ours - row.ofac) <= 5).length
  return { within, answerWithin, total: rows.length, rows }
}
