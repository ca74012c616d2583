import type { SanctionEntry } from '../datasets/records'
import type { ScoreExplanation } from '../matching/name-score'
import type { PreparedName } from '../matching/prepare-name'

/** A screening hit: the entry, the score, which of its names matched and how the score came about. */
export interface SanctionMatch extends SanctionEntry {
  score: number
  matchedName: string
  explanation: ScoreExplanation
}

/** A screening's answer: the best `limit` entries, and how many entries reached the threshold in all. */
export interface Screening {
  matches: SanctionMatch[]
  total: number
}

/** A listed name that reached the threshold: its id (entries' names and aliases in list order) and score. */
export interface NameHit {
  name: number
  entry: number
  score: number
}

/** What ranking needs to know of the listed names, whichever search found them. */
export interface ListedNames {
  entries: readonly SanctionEntry[]
  display(name: number): string
  /** Why name `name` scored what it did for `query` (`explainScore`). */
  explain(query: PreparedName, name: number): ScoreExplanation
}

/**
 * The answer of a screening from its name hits, the same whichever search found them: each entry once, by its
 * best name (the first in list order on a tie), the best `limit` entries by score, then entry name, then list
 * order, each with the explanation of its score.
 */
export function rankHits(
  hits: readonly NameHit[],
  query: PreparedName,
  limit: number,
  names: ListedNames,
): Screening {
  const best = new Map<number, NameHit>()
  for (const hit of hits) {
    const current = best.get(hit.entry)
    if (!current || hit.score > current.score || (hit.score === current.score && hit.name < current.name))
      best.set(hit.entry, hit)
  }
  const order = (x: NameHit, y: NameHit) =>
    y.score - x.score ||
    (names.entries[x.entry] as SanctionEntry).name.localeCompare(
      (names.entries[y.entry] as SanctionEntry).name,
    ) ||
    x.entry - y.entry
  const matches = selectTop([...best.values()], limit, order).map((hit) => ({
    ...(names.entries[hit.entry] as SanctionEntry),
    score: hit.score,
    matchedName: names.display(hit.name),
    explanation: names.explain(query, hit.name),
  }))
  return { matches, total: best.size }
}

/** The first `k` items in `order`, sorted, without sorting all of them (a bounded max-heap of the best k). */
export function selectTop<T>(items: T[], k: number, order: (x: T, y: T) => number): T[] {
  if (items.length <= k) return items.sort(order)
  // heap[0] is the worst of the k best so far.
  const heap: T[] = []
  const worse = (i: number, j: number) => order(heap[i] as T, heap[j] as T) > 0
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j] as T, heap[i] as T])
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item)
      for (let i = heap.length - 1; i > 0 && worse(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1)
    } else if (k > 0 && order(item, heap[0] as T) < 0) {
      heap[0] = item
      for (let i = 0; ;) {
        const left = 2 * i + 1
        const right = left + 1
        let top = i
        if (left < k && worse(left, top)) top = left
        if (right < k && worse(right, top)) top = right
        if (top === i) break
        swap(i, top)
        i = top
      }
    }
  }
  return heap.sort(order)
}
