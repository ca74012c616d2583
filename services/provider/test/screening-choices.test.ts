import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { MAX_LIST_NAME_LENGTH, MAX_SCREENING_LISTS } from '@pf/schemas'
import { referenceData } from './support-data'
import { copyOf, listsWorld, type Hit } from './support-lists'

// The optional screening choices of `parameters` (issue 25, "Per-query choices"): lists, entityType, birthYear.
const world = listsWorld()
let provider: Awaited<ReturnType<typeof world.start>>
beforeAll(async () => {
  // The same OpenSanctions entity (one id) in a second FtM file: one party on two lists.
  const dir = copyOf('opensanctions-ftm/zala.ftm.json')
  const zakharov = readFileSync(join(dir, 'zala.ftm.json'), 'utf8')
    .split('\n')
    .find((line) => line.trim() && (JSON.parse(line) as { id: string }).id === 'NK-JseaPJctnK9o8wrmz8xmoT')
  writeFileSync(join(dir, 'watch.ftm.json'), `${zakharov}\n`)
  provider = await world.start([referenceData('un-consolidated', 'consolidated.xml'), dir])
})
const byId = (hits: Hit[], id: string) => hits.find((hit) => hit.id === id)

describe('one party on several lists (the same OpenSanctions id) is one hit, not several using up limit', () => {
  it('answers one hit naming both lists, with limit 1 not cut', async () => {
    const answer = await provider.screen({ name: 'Nikita Aleksandrovich Zakharov', threshold: 99, limit: 1 })
    expect(answer.body).toMatchObject({ recordCount: 1 })
    expect(answer.body.truncated).toBeUndefined()
    const [hit] = answer.body.results as Hit[]
    expect(hit?.lists.map((l) => l.name)).toEqual(['watch', 'zala'])
  })
})

describe('entityType: person, organization, vessel or aircraft', () => {
  it('screens only entries of that kind', async () => {
    expect(
      byId(await provider.hits({ name: 'Allied Democratic Forces', entityType: 'organization' }), 'CDe.001'),
    ).toBeDefined()
    expect(
      byId(await provider.hits({ name: 'Allied Democratic Forces', entityType: 'person' }), 'CDe.001'),
    ).toBeUndefined()
    expect(
      byId(await provider.hits({ name: 'Gaston Iyamuremye', entityType: 'person' }), 'CDi.003'),
    ).toBeDefined()
  })
})

describe('birthYear: a year more than one away from every listed year lowers the score by 15 points', () => {
  it.each([
    [1948, 100],
    [1949, 100],
    [1950, 85],
  ])('GASTON IYAMUREMYE (born 1948) for birthYear %i scores %i', async (birthYear, score) => {
    const hit = byId(await provider.hits({ name: 'Gaston Iyamuremye', birthYear, threshold: 50 }), 'CDi.003')
    expect(hit?.score).toBe(score)
    if (score < 100)
      expect(hit?.explanation).toMatchObject({
        nameScore: 100,
        adjustments: [{ rule: 'birth-year', points: 15, detail: 'born 1948, not within a year of 1950' }],
      })
  })

  it('matches a year inside a listed range (KIM JONG SIK, born between 1967 and 1969)', async () => {
    for (const birthYear of [1966, 1968, 1970])
      expect(byId(await provider.hits({ name: 'Kim Jong Sik', birthYear }), 'KPi.066')?.score).toBe(100)
    expect(
      byId(await provider.hits({ name: 'Kim Jong Sik', birthYear: 1975, threshold: 50 }), 'KPi.066')?.score,
    ).toBe(85)
  })

  it('leaves records without a year of birth as they are (ADF, an entity)', async () => {
    expect(byId(await provider.hits({ name: 'ADF', birthYear: 1900 }), 'CDe.001')?.score).toBe(100)
  })
})

describe('bounds: each choice refused past them with 400 {error, queryId} and no callback', () => {
  it.each([
    ['lists is not an array', { lists: 'un-sc-consolidated' }],
    ['lists is empty', { lists: [] }],
    [
      `lists holds more than ${MAX_SCREENING_LISTS} names`,
      { lists: Array.from({ length: MAX_SCREENING_LISTS + 1 }, () => 'zala') },
    ],
    [
      `a list name is over ${MAX_LIST_NAME_LENGTH} characters`,
      { lists: ['z'.repeat(MAX_LIST_NAME_LENGTH + 1)] },
    ],
    ['a list name is unknown', { lists: ['zala', 'un-consolidated'] }],
    ['entityType is not one of the four', { entityType: 'individual' }],
    ['birthYear is before 1800', { birthYear: 1066 }],
    ['birthYear is not a whole number', { birthYear: 1971.5 }],
  ])('%s', async (_case, choices) => {
    const answer = await provider.screen({ name: 'Gaston Iyamuremye', ...choices })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({
      error: expect.stringMatching(/^invalid parameters: /),
      queryId: expect.any(String),
    })
  })

  it('keeps the spec envelope valid: every choice absent or null is a plain screening', async () => {
    const answer = await provider.screen({
      name: 'Gaston Iyamuremye',
      lists: null,
      entityType: null,
      birthYear: null,
    })
    expect(answer.status).toBe(200)
  })
})
