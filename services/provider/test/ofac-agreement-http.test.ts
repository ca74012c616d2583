import { agreementThroughAnswers, fixtureResultsAsOfacList } from './support-ofac-agreement'
import { listsWorld } from './support-lists'

describe("OFAC's own scores, measured through the provider's HTTP answer (data/reference/name-matching)", () => {
  const world = listsWorld()

  it("lands within 5 points of OFAC's score for at least 96 % of the pairs (the fixture results as an OFAC list, threshold 0)", async () => {
    const provider = await world.start([fixtureResultsAsOfacList()])
    const { within, total, rows } = await agreementThroughAnswers((name) =>
      provider.hits({ name, threshold: 0, limit: 1000 }),
    )
    // Every pair has its hit: threshold 0 scores every listed name.
    expect(rows.filter((row) => row.ours === undefined)).toEqual([])
    expect(within / total).toBeGreaterThanOrEqual(0.96)
  })
})
