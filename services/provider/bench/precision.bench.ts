import { createReadStream } from 'node:fs'
import { join } from 'node:path'
import { locateReferenceData } from '@pf/testkit'
import { loadOfacCsv } from '../src/datasets/load-ofac-csv'
import { parseUnXml } from '../src/datasets/load-un-xml'
import { SEARCH_DEFAULTS } from '../src/search-engine'
import { NAME_LOCALES } from '../test/support-customer-names'
import {
  engineOverReferenceLists,
  falsePositives,
  generatedRecall,
  REFERENCE_LISTS,
} from '../test/support-false-positives'
import { round } from './stats'

/** Customer names per locale: six locales, a few thousand names. */
const PER_LOCALE = 1000
/** Generated screening queries per list, for the recall beside the precision. */
const RECALL_QUERIES = 1000

/**
 * Precision: ordinary customers' names (given and family names drawn by their frequency in six national counts,
 * data/reference/name-frequencies) screened against every reference list at the default threshold. None is a
 * listed party, so the share that hits anything is the share of a watch's customers that raise a false alert.
 */
export async function benchPrecision() {
  const engine = await engineOverReferenceLists()
  const { screened, hits } = falsePositives(engine, PER_LOCALE)
  const byLocale = NAME_LOCALES.map(
    (locale) => `${locale} ${hits.filter((hit) => hit.locale === locale).length}`,
  ).join(', ')
  const skeletal = hits.filter((hit) => hit.comparedAs === 'consonant-skeleton').length
  // The issue's first count was against the UN list alone.
  const un = falsePositives(engine, PER_LOCALE, { lists: ['un-sc-consolidated'] })
  const reference = locateReferenceData(__dirname)
  const unFile = join(reference, 'un-consolidated', 'consolidated.xml')
  const { entries: unEntries } = await parseUnXml(createReadStream(unFile), unFile)
  const sdn = loadOfacCsv(join(reference, 'ofac-sdn-2024'))
  const recall = (name: string, entries: Parameters<typeof generatedRecall>[1]) => {
    const { found, queries } = generatedRecall(engine, entries, RECALL_QUERIES)
    return {
      benchmark: `recall beside it: ${queries} queries generated from the ${name} (misspelt, reordered, a word missing, transliterated) finding their own party at the default threshold and limit`,
      metric: '%',
      value: `${round((100 * found) / queries, 1)} (${found})`,
      target: '',
    }
  }
  return [
    {
      benchmark: `false positives: ${screened} customer names (${NAME_LOCALES.length} locales, by name frequency) with a hit ≥ ${SEARCH_DEFAULTS.sanctionsThreshold} on any of ${REFERENCE_LISTS.length} reference lists (${byLocale}; ${skeletal} through consonant skeletons)`,
      metric: '%',
      value: `${round((100 * hits.length) / screened, 2)} (${hits.length})`,
      target: '< 0.2',
    },
    {
      benchmark: '  the same against the UN list alone',
      metric: '%',
      value: `${round((100 * un.hits.length) / un.screened, 2)} (${un.hits.length})`,
      target: '',
    },
    recall('UN list', unEntries),
    recall('2024 SDN list', sdn),
    ...hits.slice(0, 10).map((hit) => ({
      benchmark: `  false positive: ${hit.name} → ${hit.matchedName} (${hit.list}${hit.comparedAs ? `, ${hit.comparedAs}` : ''})`,
      metric: 'score',
      value: hit.score,
      target: '',
    })),
  ]
}
