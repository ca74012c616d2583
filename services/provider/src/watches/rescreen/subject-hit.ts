import type { SanctionEntry } from '../../datasets/records'
import type { SanctionMatch } from '../../screening/rank-hits'
import { partyHash } from '../entry-hash'
import { entryKey } from './list-change'

/**
 * One hit of a subject as `watch_hits` keeps it: one per party (`hitKey`: the first `list:entryId` of the lists
 * the hit names, as screening groups a party's entries), `entryHash` over the decisive fields of those entries.
 */
export interface SubjectHit {
  hitKey: string
  entryHash: string
  score: number
  hit: SanctionMatch
}

/** The `SubjectHit`s of a screening's matches; `entryOf` finds a listed entry by `entryKey`. */
export function subjectHits(
  matches: readonly SanctionMatch[],
  entryOf: (key: string) => SanctionEntry | undefined,
): SubjectHit[] {
  return matches.map((hit) => {
    const keys = hit.lists.map(({ name, id }) => entryKey({ list: name, id }))
    const entries = keys.map(entryOf).filter((entry): entry is SanctionEntry => entry !== undefined)
    return { hitKey: keys[0] ?? entryKey(hit), entryHash: partyHash(entries), score: hit.score, hit }
  })
}
