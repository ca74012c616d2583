import { seededRandom } from '../scripts/sample-generator'
import { loadNameFrequencies, NAME_LOCALES } from '../test/support-customer-names'

/** Draws from weighted names by binary search over their cumulative weights. */
function drawer(names: readonly { name: string; weight: number }[], random: () => number) {
  const cumulative = Float64Array.from(names, () => 0)
  names.reduce((sum, { weight }, i) => (cumulative[i] = sum + weight), 0)
  const total = cumulative[names.length - 1] as number
  return () => {
    const target = random() * total
    let [low, high] = [0, names.length - 1]
    while (low < high) {
      const middle = (low + high) >> 1
      if ((cumulative[middle] as number) < target) low = middle + 1
      else high = middle
    }
    return (names[low] as { name: string }).name
  }
}

/**
 * `count` names of watched subjects, the same for every bench: customers' names drawn by frequency from six
 * national counts (seed 40), one in 50 a listed name.
 */
export function* watchedNames(count: number, listed: readonly string[]): Generator<string> {
  const random = seededRandom(40)
  const locales = NAME_LOCALES.map((locale) => {
    const { female, male, family, familyFirst } = loadNameFrequencies(locale)
    return { given: drawer([...female, ...male], random), family: drawer(family, random), familyFirst }
  })
  for (let i = 0; i < count; i += 1) {
    const locale = locales[i % locales.length]!
    const [given, family] = [locale.given(), locale.family()]
    yield i % 50 === 0
      ? (listed[Math.floor(random() * listed.length)] as string)
      : locale.familyFirst
        ? `${family} ${given}`
        : `${given} ${family}`
  }
}

/**
 * `count` watched subjects as JSON Lines, in chunks of about 1 MB ready to send: customers' names drawn by
 * frequency from six national counts, one in 50 a listed name (so hits and alerts are written too), one in 4
 * with a country and one in 3 with a birth year.
 */
export function watchSubjectLines(count: number, listed: readonly string[]): Buffer[] {
  const countries = ['US', 'GB', 'DE', 'FI', 'HU', 'SE']
  const chunks: Buffer[] = []
  let text = ''
  let i = 0
  for (const name of watchedNames(count, listed)) {
    const subject = {
      subjectId: `subject-${i}`,
      name,
      ...(i % 4 === 1 && { country: countries[i % countries.length] }),
      ...(i % 3 === 2 && { birthYear: 1940 + (i % 60) }),
    }
    text += `${JSON.stringify(subject)}\n`
    if (text.length >= 1 << 20) {
      chunks.push(Buffer.from(text))
      text = ''
    }
    i += 1
  }
  if (text) chunks.push(Buffer.from(text))
  return chunks
}
