import type { SanctionEntry } from '../datasets/records'
import type { SanctionMatch } from '../screening/sanctions-index'
import { SEARCH_DEFAULTS, type SearchEngine } from '../search-engine'
import { partyHash } from './entry-hash'

/** One hit of a watched subject: one party (on one list or several), as `watch_hits` keeps it. */
export interface WatchHit {
  /** The party's first `list:entryId`, as screening orders the lists one party is on. */
  hitKey: string
  /** `partyHash` of the party's entries: what decides a match, so a decision holds while it stays. */
  entryHash: string
  score: number
  /** What a screening answer carries: the lists with their `version` (as `/api/lists` shows it), the explanation. */
  hit: SanctionMatch
}

/** What a watch screens with: `threshold` (default the provider's), `lists` and `entityType` (null: any). */
export interface WatchChoices {
  threshold: number | null
  lists: string[] | null
  entityType: string | null
}

/** What of a subject is screened. */
export interface ScreenedSubject {
  name: string
  country?: string | null
  birthYear?: number | null
  entityType?: string | null
}

const entryKeys = new WeakMap<readonly SanctionEntry[], Map<string, SanctionEntry>>()

/** The key of one listed entry, as hits and decisions name it. */
export const entryKey = (list: string, entryId: string) => `${list}:${entryId}`

/**
 * Screens one subject with the provider's screening (same scorer and rules as `POST /api/search/sanctions`),
 * with the watch's threshold, lists and entity type, and no cap on hits. The subject's own entity type, when it
 * has one, narrows the watch's. Throws when a list of the watch is no longer in use (the subject waits).
 */
export function screenSubject(
  engine: Pick<SearchEngine, 'lists' | 'searchSanctions'>,
  watch: WatchChoices,
  subject: ScreenedSubject,
): WatchHit[] {
  const { index } = engine.lists.current()
  const { results } = engine.searchSanctions({
    name: subject.name,
    country: subject.country,
    birthYear: subject.birthYear,
    entityType: (subject.entityType ?? watch.entityType) as never,
    lists: watch.lists,
    threshold: watch.threshold ?? SEARCH_DEFAULTS.sanctionsThreshold,
    limit: Number.MAX_SAFE_INTEGER,
  })
  return results.map((hit) => {
    const first = hit.lists[0] ?? { name: hit.list ?? '', id: hit.id }
    return {
      hitKey: entryKey(first.name, first.id),
      entryHash: partyHash(hit.lists.map(({ name, id }) => entryOf(index.entries, name, id) ?? hit)),
      score: Math.round(hit.score),
      hit,
    }
  })
}

function entryOf(entries: readonly SanctionEntry[], list: string, id: string): SanctionEntry | undefined {
  let keys = entryKeys.get(entries)
  if (!keys) {
    keys = new Map(entries.map((entry) => [entryKey(entry.list ?? '', entry.id), entry]))
    entryKeys.set(entries, keys)
  }
  return keys.get(entryKey(list, id))
}
