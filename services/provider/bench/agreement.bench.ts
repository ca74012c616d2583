import { createLogger } from '@pf/service-kit'
import { SanctionsLists } from '../src/lists/sanctions-lists'
import { SearchEngine } from '../src/search-engine'
import { agreementThroughAnswers, fixtureResultsAsOfacList } from '../test/support-ofac-agreement'
import { round } from './stats'

/**
 * OFAC's agreement as users see it: the fixture's result names loaded as an OFAC list, each fixture query
 * screened by the search engine the route answers with (threshold 0), the name score of the hit naming the
 * result compared with OFAC's (and its score after the precision rules, beside it); with every hit (limit 1000, as the test suite checks over HTTP) and with the default
 * limit (20: what a query without `limit` sees).
 */
export async function benchAgreement() {
  const logger = createLogger({ name: 'bench', level: 'silent' })
  const lists = await SanctionsLists.load([fixtureResultsAsOfacList()], {
    timeoutMs: 30_000,
    maxBytes: 64 * 1024 * 1024,
    logger,
  })
  const engine = SearchEngine.build({ companies: [], sanctions: [] }, lists)
  const measure = async (limit?: number) => {
    const { within, answerWithin, total } = await agreementThroughAnswers(async (name) =>
      Promise.resolve(engine.searchSanctions({ name, threshold: 0, ...(limit ? { limit } : {}) }).results),
    )
    const percent = (count: number) => `${round((100 * count) / total, 1)} (${count}/${total})`
    return `${percent(within)}; hit scores after the precision rules ${percent(answerWithin)}`
  }
  return [
    {
      benchmark:
        "agreement with OFAC's own scores within 5 points, through the provider's answer (threshold 0, every hit): the name score (explanation.nameScore)",
      metric: '%',
      value: await measure(1000),
      target: '>= 96',
    },
    {
      benchmark: 'the same with the default limit (20 hits: a result cut off counts as a miss)',
      metric: '%',
      value: await measure(),
      target: '',
    },
  ]
}
