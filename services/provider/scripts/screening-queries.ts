// Screening queries generated from a sanctions list itself, as screeners write names: for the tests that compare
// the index with the full scan, and for the benchmarks.
import type { SanctionEntry } from '../src/datasets/records'
import { seededRandom } from './sample-generator'

/** A listed name as a screener might write it: reordered, a word missing, a letter dropped, transliterated, or as listed. */
export function screeningQuery(name: string, random: () => number): string {
  const words = name.replace(/,/g, ' ').split(/\s+/).filter(Boolean)
  const pick = Math.floor(random() * 5)
  if (pick === 0 && words.length > 1) words.reverse()
  if (pick === 1 && words.length > 2) words.splice(Math.floor(random() * words.length), 1)
  let text = words.join(' ')
  if (pick === 2 && text.length > 4) {
    const at = 1 + Math.floor(random() * (text.length - 2))
    text = text.slice(0, at) + text.slice(at + 1) // a letter dropped
  }
  if (pick === 3)
    text = text.replace(/KH/gi, 'H').replace(/OU/gi, 'U').replace(/Y/gi, 'I').replace(/E/gi, 'A') // transliteration
  return text
}

/** `count` screening queries from random entries (one in five from an alias when there is one). */
export function screeningQueries(entries: readonly SanctionEntry[], count: number, seed: number): string[] {
  const random = seededRandom(seed)
  return Array.from({ length: count }, () => {
    const entry = entries[Math.floor(random() * entries.length)] as SanctionEntry
    return screeningQuery(random() < 0.2 && entry.aliases[0] ? entry.aliases[0] : entry.name, random)
  })
}

/**
 * `count` made-up list entries whose names are built from the words of a real list (`source`): two to four
 * of its name words, each sometimes with one letter changed, so the vocabulary grows like a real list's.
 */
export function generatedEntries(
  source: readonly SanctionEntry[],
  count: number,
  seed: number,
): SanctionEntry[] {
  const random = seededRandom(seed)
  const words = [
    ...new Set(source.flatMap((e) => e.name.replace(/,/g, ' ').split(/\s+/)).filter((w) => w.length > 2)),
  ]
  const letters = 'ABCDEFGHIJKLMNOPRSTUVYZ'
  const word = () => {
    const picked = words[Math.floor(random() * words.length)] as string
    if (random() > 0.3) return picked
    const at = Math.floor(random() * picked.length)
    return picked.slice(0, at) + letters[Math.floor(random() * letters.length)] + picked.slice(at + 1)
  }
  return Array.from({ length: count }, (_, i) => {
    const parts = Array.from({ length: 2 + Math.floor(random() * 3) }, word)
    return {
      id: `G${i + 1}`,
      name: `${parts[0]}, ${parts.slice(1).join(' ')}`,
      type: 'individual' as const,
      programs: ['GENERATED'],
      aliases: [],
      countries: [],
      remarks: null,
      source: 'generated',
    }
  })
}
