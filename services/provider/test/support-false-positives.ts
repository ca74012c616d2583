import { createLogger } from '@pf/service-kit'
import { seededRandom } from '../scripts/sample-generator'
import { screeningQuery } from '../scripts/screening-queries'
import type { SanctionEntry } from '../src/datasets/records'
import { SanctionsLists } from '../src/lists/sanctions-lists'
import { SEARCH_DEFAULTS, SearchEngine } from '../src/search-engine'
import { customerNames } from './support-customer-names'
import { referenceData } from './support-data'

/**
 * Every sanctions list kept in data/reference, as the provider loads them: the OFAC SDN list (its 2024 release:
 * the provider holds one release of a list, and the 2021 one is its older self), OFAC's Consolidated list, the UN
 * list, the US CSL and Denied Persons lists, and the OpenSanctions exports.
 */
export const REFERENCE_LISTS = [
  'ofac-sdn-2024',
  'ofac-consolidated',
  'un-consolidated/consolidated.xml',
  'us-csl',
  'opensanctions-ftm/entities.ftm.json',
  'opensanctions-ftm/zala.ftm.json',
]

/** The search engine over every reference list (`REFERENCE_LISTS`). */
export async function engineOverReferenceLists(): Promise<SearchEngine> {
  const lists = await SanctionsLists.load(
    REFERENCE_LISTS.map((path) => referenceData(path)),
    { timeoutMs: 30_000, maxBytes: 64 * 1024 * 1024, logger: createLogger({ name: 'fp', level: 'silent' }) },
  )
  return SearchEngine.build({ companies: [], sanctions: [] }, lists)
}

/** A customer name that reached the threshold, with its best hit. */
export interface FalsePositive {
  locale: string
  name: string
  matchedName: string
  list: string
  score: number
  comparedAs?: string
}

/**
 * Ordinary customers' names (`customerNames`: given and family names drawn by their frequency in six national
 * counts) screened against every reference list at the default threshold: the names that hit anything. None of
 * them is a listed party, so each hit is a false alert a watch would raise.
 */
export function falsePositives(
  engine: SearchEngine,
  perLocale: number,
  { threshold = SEARCH_DEFAULTS.sanctionsThreshold, lists }: { threshold?: number; lists?: string[] } = {},
): { screened: number; hits: FalsePositive[] } {
  const names = customerNames(perLocale)
  const hits: FalsePositive[] = []
  for (const { locale, name } of names) {
    const [best] = engine.searchSanctions({ name, threshold, limit: 1, ...(lists ? { lists } : {}) }).results
    if (best)
      hits.push({
        locale,
        name,
        matchedName: best.matchedName,
        list: best.list ?? '',
        score: best.score,
        ...(best.explanation.comparedAs ? { comparedAs: best.explanation.comparedAs } : {}),
      })
  }
  return { screened: names.length, hits }
}

/**
 * The other side of precision: screening queries generated from listed names (`screeningQueries`: reordered, a
 * word missing, a letter dropped, transliterated, or as listed) screened like the customers, at the default
 * threshold and limit; the share whose own party is among the hits.
 */
export function generatedRecall(
  engine: SearchEngine,
  entries: readonly SanctionEntry[],
  count: number,
  seed = 7,
): { found: number; queries: number } {
  const random = seededRandom(seed)
  let found = 0
  for (let q = 0; q < count; q += 1) {
    const entry = entries[Math.floor(random() * entries.length)] as SanctionEntry
    const listed = random() < 0.2 && entry.aliases[0] ? entry.aliases[0] : entry.name
    const { results } = engine.searchSanctions({ name: screeningQuery(listed, random) })
    if (results.some((hit) => hit.lists.some((list) => list.id === entry.id))) found += 1
  }
  return { found, queries: count }
}
