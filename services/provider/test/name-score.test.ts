import { jaro, jaroWinkler } from '../src/matching/jaro-winkler'
import { scoreName } from '../src/matching/name-score'
import { prepareListedName, prepareQueryName } from '../src/matching/prepare-name'
import { loadOfacFixtures } from './support-data'

const fixtures = loadOfacFixtures()
const scored = fixtures.filter((f) => f.ofac >= 0)
const ours = scored.map((f) => scoreName(prepareQueryName(f.query), prepareListedName(f.result)))
const within5 = scored.filter((f, i) => Math.abs((ours[i] as number) - f.ofac) <= 5).length
const percent = ((100 * within5) / scored.length).toFixed(1)

describe('name scoring against OFAC Sanctions List Search (data/reference/name-matching/ofac_fixtures.csv)', () => {
  it(`lands within 5 points of OFAC's score for ${within5}/${scored.length} pairs (${percent}%, target ≥ 96%)`, () => {
    expect(within5 / scored.length).toBeGreaterThanOrEqual(0.96)
  })

  it('scores the whole names whatever their initials ("PUTIN VLADIMIR" ~ "TURIN, Vladimir": OFAC 92)', () => {
    expect(scoreName(prepareQueryName('PUTIN VLADIMIR'), prepareListedName('TURIN, Vladimir'))).toBe(93)
  })

  it('discounts parts that do not sound alike (PUTIN ~ POLIN: OFAC 81 for VLADIMIR PUTIN)', () => {
    expect(
      scoreName(prepareQueryName('VLADIMIR PUTIN'), prepareListedName('POLIN, Vladimir Anatolevich')),
    ).toBe(86)
  })

  it('leaves leading legal forms out of the whole-name term, and keeps trailing ones', () => {
    expect(prepareQueryName('LIMITED LIABILITY COMPANY TELECOM INFRASTRUCTURE').whole).toBe(
      'TELECOM INFRASTRUCTURE',
    )
    expect(prepareListedName('GORGE LIMITED').whole).toBe('GORGE LIMITED')
    expect(prepareListedName('LIMITED').whole).toBe('LIMITED')
  })

  it('gives 100 to a reordered exact name, and to one with extra parts', () => {
    expect(scoreName(prepareQueryName('VLADIMIR PUTIN'), prepareListedName('PUTIN, Vladimir'))).toBe(100)
    expect(
      scoreName(prepareQueryName('VLADIMIR PUTIN'), prepareListedName('PUTIN, Vladimir Vladimirovich')),
    ).toBe(100)
  })

  it('joins hyphenated parts on the query side and matches both forms on the listed side', () => {
    expect(
      scoreName(prepareQueryName('BASHIRUDDIN'), prepareListedName('MAHMOOD, Sultan Bashir-Ud-Din')),
    ).toBe(100)
    expect(
      scoreName(prepareQueryName('BASHIR UD DIN'), prepareListedName('MAHMOOD, Sultan Bashir-Ud-Din')),
    ).toBe(100)
  })

  it('is case- and accent-insensitive', () => {
    expect(scoreName(prepareQueryName('société générale'), prepareListedName('SOCIETE GENERALE'))).toBe(100)
  })
})

describe('Jaro-Winkler', () => {
  it.each([
    ['MARTHA', 'MARHTA', 0.944, 0.961],
    ['DWAYNE', 'DUANE', 0.822, 0.84],
    ['DIXON', 'DICKSONX', 0.767, 0.813],
  ])('%s ~ %s: Jaro %d, Jaro-Winkler %d (the textbook values)', (a, b, j, jw) => {
    expect(jaro(a, b)).toBeCloseTo(j, 3)
    expect(jaroWinkler(a, b)).toBeCloseTo(jw, 3)
  })

  it('is 1 for equal strings and 0 for nothing in common', () => {
    expect(jaroWinkler('ABC', 'ABC')).toBe(1)
    expect(jaroWinkler('ABC', 'XYZ')).toBe(0)
    expect(jaroWinkler('', 'XYZ')).toBe(0)
  })
})
