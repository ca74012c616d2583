import { readFileSync } from 'node:fs'
import { seededRandom } from '../scripts/sample-generator'
import { referenceData } from './support-data'

/** A name and its share of the population it was counted in (equal shares where the source gives ranks only). */
interface WeightedName {
  name: string
  weight: number
}

/** One language's given and family names, and the order a customer's name is written in. */
export interface NameFrequencies {
  locale: string
  female: WeightedName[]
  male: WeightedName[]
  family: WeightedName[]
  familyFirst: boolean
}

/**
 * The locales kept in data/reference/name-frequencies (Python Faker 0.9.3's person providers, as Debian ships
 * them), each built from a national statistics office's or registry's counts: see that folder's README row.
 * Hungarian names are written family name first.
 */
export const NAME_LOCALES = ['en_US', 'en_GB', 'de_DE', 'fi_FI', 'hu_HU', 'sv_SE'] as const

/**
 * The names a provider file assigns to `field`: `field = OrderedDict((('Mary', 0.0123), ...))` with weights,
 * or `field = ('Mary', ...)` in rank order (each weighted alike).
 */
function namesOf(source: string, field: string): WeightedName[] {
  const start = source.search(new RegExp(`^ *${field} *= *(OrderedDict\\(\\(|\\()`, 'm'))
  if (start < 0) return []
  // A block ends at its closing line or, where the closing brackets end its last line, at a blank line.
  const ends = ['\n    )', '\n\n'].map((mark) => source.indexOf(mark, start)).filter((at) => at >= 0)
  const body = source.slice(start, Math.min(...ends, source.length))
  // A Python string literal, its quote escaped inside (O\'Neill).
  const unquote = (text: string) => text.replace(/\\(.)/g, '$1')
  const weighted = [...body.matchAll(/\(\s*(['"])((?:\\.|(?!\1).)+)\1\s*,\s*([0-9.e-]+)\s*\)/g)]
  if (weighted.length > 0)
    return weighted.map(([, , name, weight]) => ({ name: unquote(name!), weight: Number(weight) }))
  return [...body.matchAll(/(['"])((?:\\.|(?!\1)[^{}])+)\1/g)].map(([, , name]) => ({
    name: unquote(name!),
    weight: 1,
  }))
}

/** One locale's name frequencies, read from its provider file. */
export function loadNameFrequencies(locale: string): NameFrequencies {
  const source = readFileSync(referenceData('name-frequencies', `${locale}.py`), 'utf8')
  return {
    locale,
    female: namesOf(source, 'first_names_female'),
    male: namesOf(source, 'first_names_male'),
    family: namesOf(source, 'last_names'),
    familyFirst: locale === 'hu_HU',
  }
}

/** A draw from `names` in proportion to their weights. */
function weightedPick(names: readonly WeightedName[], total: number, random: () => number): string {
  let left = random() * total
  for (const { name, weight } of names) {
    left -= weight
    if (left <= 0) return name
  }
  return (names[names.length - 1] as WeightedName).name
}

/**
 * `perLocale` customer names of each locale, as a customer base would hold them: a given name (half female, half
 * male) and a family name, each drawn by its frequency, so common names repeat as they do among real customers.
 * Seeded: the same names every run.
 */
export function customerNames(perLocale: number, seed = 1): { locale: string; name: string }[] {
  const random = seededRandom(seed)
  const sum = (names: readonly WeightedName[]) => names.reduce((total, n) => total + n.weight, 0)
  return NAME_LOCALES.flatMap((locale) => {
    const { female, male, family, familyFirst } = loadNameFrequencies(locale)
    const totals = { female: sum(female), male: sum(male), family: sum(family) }
    return Array.from({ length: perLocale }, (_, i) => {
      const given =
        i % 2 === 0 ? weightedPick(female, totals.female, random) : weightedPick(male, totals.male, random)
      const surname = weightedPick(family, totals.family, random)
      return { locale, name: familyFirst ? `${surname} ${given}` : `${given} ${surname}` }
    })
  })
}
