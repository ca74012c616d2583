// A million-name list in several scripts for the benchmark: names built from the words of real lists, in the
// scripts those lists write names in.
import type { SanctionEntry } from '../src/datasets/records'
import { detectScript } from '../src/matching/detect-script'
import { seededRandom } from './sample-generator'

/**
 * `count` made-up entries, each named by two to four words of one script taken from the names of `source`
 * (Latin names, and the Arabic, Cyrillic and other originals of lists such as the UN's), one script per name in
 * the proportion the source's words have: a list with a few percent of non-Latin names, like the real ones.
 */
export function multiScriptEntries(
  source: readonly SanctionEntry[],
  count: number,
  seed: number,
): SanctionEntry[] {
  const random = seededRandom(seed)
  const byScript = new Map<string, string[]>()
  for (const entry of source)
    for (const name of [entry.name, ...entry.aliases])
      for (const word of name.replace(/,/g, ' ').split(/\s+/))
        if (word.length > 2) {
          const script = detectScript(word)
          // Pushed in place: copying the list for each word made generating a million names take minutes.
          const words = byScript.get(script) ?? []
          if (words.length === 0) byScript.set(script, words)
          words.push(word)
        }
  const pools = [...byScript.values()].map((words) => [...new Set(words)])
  const total = pools.reduce((sum, words) => sum + words.length, 0)
  const pool = () => {
    let at = random() * total
    for (const words of pools) if ((at -= words.length) < 0) return words
    return pools[0] as string[]
  }
  return Array.from({ length: count }, (_, i) => {
    const words = pool()
    const parts = Array.from(
      { length: 2 + Math.floor(random() * 3) },
      () => words[Math.floor(random() * words.length)] as string,
    )
    return {
      id: `M${i + 1}`,
      name: parts.join(' '),
      type: 'individual' as const,
      programs: ['GENERATED'],
      aliases: [],
      countries: [],
      remarks: null,
      source: 'generated',
    }
  })
}
