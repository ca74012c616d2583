import type { SanctionEntry } from '../datasets/records'
import { jaroWinkler } from './jaro-winkler'
import { normalizeCountry } from './normalize-country'
import {
  explainScore,
  prepareListedName,
  prepareQueryName,
  scoreName,
  type PreparedName,
  type ScoreExplanation,
} from './name-score'
import { SearchBudgetError } from '../errors'

export interface SanctionsQuery {
  name: string
  country?: string | null
  /** Lowest score returned, 0-100. */
  threshold: number
  limit: number
  /** Epoch ms after which the search gives up (`SearchBudgetError`). */
  deadline?: number
}

/** A screening hit: the entry, the score, which of its names matched and how the score came about. */
export interface SanctionMatch extends SanctionEntry {
  score: number
  matchedName: string
  explanation: ScoreExplanation
}

/**
 * Jaro-Winkler of `a` and `b` at most, when at most `matches` characters can match: Jaro is then at most
 * (m/|a| + m/|b| + 1) / 3 (no transposition), and Winkler adds 0.1 per common prefix character (up to 4).
 */
function boundFromMatches(matches: number, a: string, b: string): number {
  const m = Math.min(matches, a.length, b.length)
  const jaroMax = (m / a.length + m / b.length + 1) / 3
  let prefix = 0
  while (
    prefix < 4 &&
    prefix < a.length &&
    prefix < b.length &&
    a.charCodeAt(prefix) === b.charCodeAt(prefix)
  )
    prefix += 1
  return jaroMax + 0.1 * prefix * (1 - jaroMax)
}

const HISTOGRAM = 32
/** Character counts by code modulo 32 (collisions only loosen the bound), capped at 255. */
function histogram(text: string, into: Uint8Array, at: number): void {
  for (let i = 0; i < text.length; i += 1) {
    const slot = at + (text.charCodeAt(i) & 31)
    if ((into[slot] as number) < 255) into[slot] = (into[slot] as number) + 1
  }
}

/**
 * Upper bound of Jaro-Winkler(a, b) from character counts: at most their histogram intersection can match.
 */
function wholeBound(a: string, countsA: Uint8Array, b: string, counts: Uint8Array, at: number): number {
  let m = 0
  for (let k = 0; k < HISTOGRAM; k += 1) m += Math.min(countsA[k] as number, counts[at + k] as number)
  return boundFromMatches(m, a, b)
}

interface ListedName extends PreparedName {
  entry: number
  display: string
  /** Ids of `parts` in the vocabulary. */
  partIds: Int32Array
}

/** One bit per character (its code modulo 32): a letter set where collisions only loosen the bounds below. */
function letterMask(text: string): number {
  let mask = 0
  for (let i = 0; i < text.length; i += 1) mask |= 1 << (text.charCodeAt(i) & 31)
  return mask
}

/**
 * Upper bound of Jaro-Winkler(a, b) without running it: at most the characters of `a` whose letter occurs in `b`
 * can match.
 */
function jaroWinklerBound(a: string, b: string, maskB: number): number {
  let u = 0
  for (let i = 0; i < a.length; i += 1) if (maskB & (1 << (a.charCodeAt(i) & 31))) u += 1
  return boundFromMatches(u, a, b)
}

/**
 * Fuzzy screening over every name and alias of a sanctions list, scored by `scoreName`, returning exactly what
 * scoring every name would (`searchLinear`), faster. A name reaches the threshold by one of the score's two
 * terms, and each has its own exact candidate generation:
 * - parts: the vocabulary of listed parts, bucketed by initial; a query part is compared with each part of its
 *   bucket whose letter-set bound can reach the floor; a name whose mean part score reaches it must hold a part
 *   that does, so the postings of those parts are the candidates;
 * - whole name: names bucketed by initial, each with its character counts; a name is a candidate when the
 *   count-intersection bound of the whole-name Jaro-Winkler reaches the floor.
 * Candidates are scored by `scoreName` itself, with the part similarities computed on the way cached.
 */
export class SanctionsIndex {
  private constructor(
    private readonly entries: SanctionEntry[],
    private readonly names: ListedName[],
    private readonly vocabulary: string[],
    private readonly masks: Uint32Array,
    private readonly namesByPart: Int32Array[],
    private readonly partsByInitial: Map<number, Int32Array>,
    private readonly namesByInitial: Map<number, Int32Array>,
    private readonly wholeCounts: Uint8Array,
  ) {}

  static build(entries: SanctionEntry[]): SanctionsIndex {
    const vocabulary: string[] = []
    const idOf = new Map<string, number>()
    const postings: number[][] = []
    const names: ListedName[] = []
    entries.forEach((entry, index) => {
      for (const display of [entry.name, ...entry.aliases]) {
        const prepared = prepareListedName(display)
        const partIds = Int32Array.from(prepared.parts, (part) => {
          let id = idOf.get(part)
          if (id === undefined) {
            id = vocabulary.push(part) - 1
            idOf.set(part, id)
            postings.push([])
          }
          postings[id]!.push(names.length)
          return id
        })
        names.push({ ...prepared, entry: index, display, partIds })
      }
    })
    const byInitial = new Map<number, number[]>()
    vocabulary.forEach((part, id) => {
      const initial = part.charCodeAt(0)
      const bucket = byInitial.get(initial)
      if (bucket) bucket.push(id)
      else byInitial.set(initial, [id])
    })
    const namesByInitial = new Map<number, number[]>()
    const wholeCounts = new Uint8Array(names.length * HISTOGRAM)
    names.forEach((name, id) => {
      histogram(name.whole, wholeCounts, id * HISTOGRAM)
      const initial = name.whole.charCodeAt(0)
      const bucket = namesByInitial.get(initial)
      if (bucket) bucket.push(id)
      else namesByInitial.set(initial, [id])
    })
    const typed = (map: Map<number, number[]>) =>
      new Map([...map].map(([initial, ids]) => [initial, Int32Array.from(ids)]))
    return new SanctionsIndex(
      entries,
      names,
      vocabulary,
      Uint32Array.from(vocabulary, letterMask),
      postings.map((ids) => Int32Array.from(ids)),
      typed(byInitial),
      typed(namesByInitial),
      wholeCounts,
    )
  }

  get size(): number {
    return this.entries.length
  }

  get nameCount(): number {
    return this.names.length
  }

  search(query: SanctionsQuery): SanctionMatch[] {
    const prepared = prepareQueryName(query.name)
    const budget = createBudget(query.deadline)
    // Scores are rounded to whole points: a part at 0.845 already scores 85.
    const floor = (query.threshold - 0.5) / 100
    // Part similarities by vocabulary id, filled lazily: only parts compared on the way are ever stored.
    const similarities = prepared.parts.map(() => new Map<number, number>())
    const seen = new Uint8Array(this.names.length)
    const candidates: number[] = []
    const add = (name: number) => {
      if (seen[name] === 0) {
        seen[name] = 1
        candidates.push(name)
      }
    }
    prepared.parts.forEach((part, i) => {
      const table = similarities[i] as Map<number, number>
      for (const id of this.partsByInitial.get(part.charCodeAt(0)) ?? []) {
        budget.tick()
        const listed = this.vocabulary[id] as string
        // Provably below the floor: not enough letters in common. Computed later if a candidate needs it.
        if (jaroWinklerBound(part, listed, this.masks[id] as number) < floor) continue
        const similarity = listed === part ? 1 : jaroWinkler(part, listed)
        table.set(id, similarity)
        if (similarity >= floor) for (const name of this.namesByPart[id] as Int32Array) add(name)
      }
    })
    if (prepared.whole) {
      const counts = new Uint8Array(HISTOGRAM)
      histogram(prepared.whole, counts, 0)
      for (const id of this.namesByInitial.get(prepared.whole.charCodeAt(0)) ?? []) {
        budget.tick()
        if (seen[id] === 1) continue
        const name = this.names[id] as ListedName
        if (wholeBound(prepared.whole, counts, name.whole, this.wholeCounts, id * HISTOGRAM) >= floor) add(id)
      }
    }
    const score = (name: ListedName) => {
      budget.tick()
      return scoreName(prepared, name, (i, j) => {
        const table = similarities[i] as Map<number, number>
        const id = name.partIds[j] as number
        let similarity = table.get(id)
        if (similarity === undefined) {
          const part = prepared.parts[i] as string
          const listed = this.vocabulary[id] as string
          similarity = listed.charCodeAt(0) === part.charCodeAt(0) ? jaroWinkler(part, listed) : 0
          table.set(id, similarity)
        }
        return similarity
      })
    }
    return this.rank(candidates, query, prepared, score)
  }

  /** The same search by scoring every name with `scoreName`: the baseline the index is measured against. */
  searchLinear(query: SanctionsQuery): SanctionMatch[] {
    const prepared = prepareQueryName(query.name)
    return this.rank(this.names.keys(), query, prepared, (name) => scoreName(prepared, name))
  }

  private rank(
    candidates: Iterable<number>,
    { country, threshold, limit }: SanctionsQuery,
    prepared: PreparedName,
    score: (name: ListedName) => number,
  ): SanctionMatch[] {
    const code = country?.trim() ? normalizeCountry(country) : undefined
    const best = new Map<number, { score: number; name: ListedName }>()
    for (const id of candidates) {
      const name = this.names[id] as ListedName
      if (code !== undefined && !(this.entries[name.entry] as SanctionEntry).countries.includes(code ?? ''))
        continue
      const value = score(name)
      if (value < threshold) continue
      const current = best.get(name.entry)
      if (!current || value > current.score) best.set(name.entry, { score: value, name })
    }
    return [...best.entries()]
      .map(([entry, { score: value, name }]) => ({
        ...(this.entries[entry] as SanctionEntry),
        score: value,
        matchedName: name.display,
        explanation: explainScore(prepared, name),
      }))
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
      .slice(0, limit)
  }
}

/** Checks the clock every 4096 steps: a search past its deadline stops with `SearchBudgetError`. */
function createBudget(deadline: number | undefined) {
  let steps = 0
  return {
    tick() {
      if (deadline === undefined || (steps += 1) % 4096 !== 0) return
      if (Date.now() > deadline) throw new SearchBudgetError('search took longer than its time budget')
    },
  }
}
