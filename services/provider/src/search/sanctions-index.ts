import type { SanctionEntry } from '../datasets/records'
import { jaroWinkler } from './jaro-winkler'
import { normalizeCountry } from './normalize-country'
import { prepareListedName, prepareQueryName, scoreName, type PreparedName } from './name-score'

export interface SanctionsQuery {
  name: string
  country?: string | null
  /** Lowest score returned, 0-100. */
  threshold: number
  limit: number
}

/** A screening hit: the entry, the score and which of its names matched. */
export interface SanctionMatch extends SanctionEntry {
  score: number
  matchedName: string
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
 * Upper bound of Jaro-Winkler(a, b) without running it: at most `u` characters can match, where `u` counts the
 * characters of `a` whose letter occurs in `b` (capped by the shorter length); Jaro is then at most
 * (u/|a| + u/|b| + 1) / 3 (no transposition), and Winkler adds 0.1 per common prefix character (up to 4).
 */
function jaroWinklerBound(a: string, b: string, maskB: number): number {
  let u = 0
  for (let i = 0; i < a.length; i += 1) if (maskB & (1 << (a.charCodeAt(i) & 31))) u += 1
  u = Math.min(u, a.length, b.length)
  const jaroMax = (u / a.length + u / b.length + 1) / 3
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

/**
 * Fuzzy screening over every name and alias of a sanctions list, scored by `scoreName`.
 *
 * The index is the vocabulary of listed name parts, bucketed by initial (the score only compares parts with
 * the same initial, as OFAC narrows by first letter). A query part is compared once with each vocabulary part
 * of its bucket; the parts reaching the threshold give the candidate names (a name whose mean part score
 * reaches the threshold must have one), and the similarities computed on the way are reused to score those
 * candidates, so scoring a candidate is table look-ups plus one whole-name comparison. Names that only the
 * whole-name comparison would lift over the threshold can be missed: the tests and the benchmark measure
 * this recall against a full scan (`searchLinear`).
 */
export class SanctionsIndex {
  private constructor(
    private readonly entries: SanctionEntry[],
    private readonly names: ListedName[],
    private readonly vocabulary: string[],
    private readonly masks: Uint32Array,
    private readonly namesByPart: Int32Array[],
    private readonly partsByInitial: Map<number, Int32Array>,
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
    return new SanctionsIndex(
      entries,
      names,
      vocabulary,
      Uint32Array.from(vocabulary, letterMask),
      postings.map((ids) => Int32Array.from(ids)),
      new Map([...byInitial].map(([initial, ids]) => [initial, Int32Array.from(ids)])),
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
    // Scores are rounded to whole points: a part at 0.845 already scores 85.
    const floor = (query.threshold - 0.5) / 100
    // -1: not computed yet (pruned by the length bound); filled on demand when a candidate needs it.
    const similarities = prepared.parts.map(() => new Float64Array(this.vocabulary.length).fill(-1))
    const seen = new Uint8Array(this.names.length)
    const candidates: number[] = []
    prepared.parts.forEach((part, i) => {
      const table = similarities[i] as Float64Array
      for (const id of this.partsByInitial.get(part.charCodeAt(0)) ?? []) {
        const listed = this.vocabulary[id] as string
        // Provably below the floor: not enough letters in common. Left for on-demand scoring below.
        if (jaroWinklerBound(part, listed, this.masks[id] as number) < floor) continue
        const similarity = listed === part ? 1 : jaroWinkler(part, listed)
        table[id] = similarity
        if (similarity < floor) continue
        for (const name of this.namesByPart[id] as Int32Array) {
          if (seen[name] === 0) {
            seen[name] = 1
            candidates.push(name)
          }
        }
      }
    })
    const score = (name: ListedName) => {
      let sum = 0
      prepared.parts.forEach((part, i) => {
        const table = similarities[i] as Float64Array
        let best = 0
        for (const id of name.partIds) {
          let similarity = table[id] as number
          if (similarity < 0) {
            const listed = this.vocabulary[id] as string
            similarity = listed.charCodeAt(0) === part.charCodeAt(0) ? jaroWinkler(part, listed) : 0
            table[id] = similarity
          }
          if (similarity > best) best = similarity
        }
        sum += best
      })
      const composite = prepared.parts.length > 0 ? sum / prepared.parts.length : 0
      const whole =
        composite < 1 && prepared.whole.charCodeAt(0) === name.whole.charCodeAt(0)
          ? jaroWinkler(prepared.whole, name.whole)
          : 0
      return Math.round(100 * Math.max(composite, whole))
    }
    return this.rank(candidates, query, score)
  }

  /** The same search by scoring every name with `scoreName`: the baseline the index is measured against. */
  searchLinear(query: SanctionsQuery): SanctionMatch[] {
    const prepared = prepareQueryName(query.name)
    return this.rank(this.names.keys(), query, (name) => scoreName(prepared, name))
  }

  private rank(
    candidates: Iterable<number>,
    { country, threshold, limit }: SanctionsQuery,
    score: (name: ListedName) => number,
  ) {
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
      }))
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
      .slice(0, limit)
  }
}
