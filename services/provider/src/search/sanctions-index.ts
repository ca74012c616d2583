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
}

/**
 * Fuzzy screening over every name and alias of a sanctions list.
 *
 * Candidates come from an index of name parts bucketed by first letter (OFAC narrows candidates by first
 * letter too): for each query part, the listed parts with the same initial whose Jaro-Winkler reaches the
 * threshold. A name whose mean part score reaches the threshold must have at least one such part, so no
 * composite match is missed; the whole-name comparison is only tried on those candidates (the benchmark
 * measures recall against a full scan). Then each candidate is scored in full, the best name per entry kept.
 */
export class SanctionsIndex {
  private constructor(
    private readonly entries: SanctionEntry[],
    private readonly names: ListedName[],
    private readonly partsByInitial: Map<string, { part: string; names: number[] }[]>,
  ) {}

  static build(entries: SanctionEntry[]): SanctionsIndex {
    const names: ListedName[] = []
    entries.forEach((entry, index) => {
      for (const display of [entry.name, ...entry.aliases]) {
        names.push({ ...prepareListedName(display), entry: index, display })
      }
    })
    const postings = new Map<string, number[]>()
    names.forEach((name, id) => {
      for (const part of name.parts) {
        const list = postings.get(part)
        if (list) list.push(id)
        else postings.set(part, [id])
      }
    })
    const partsByInitial = new Map<string, { part: string; names: number[] }[]>()
    for (const [part, ids] of postings) {
      const bucket = partsByInitial.get(part[0] as string)
      if (bucket) bucket.push({ part, names: ids })
      else partsByInitial.set(part[0] as string, [{ part, names: ids }])
    }
    return new SanctionsIndex(entries, names, partsByInitial)
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
    const candidates = new Set<number>()
    for (const part of prepared.parts) {
      for (const listed of this.partsByInitial.get(part[0] as string) ?? []) {
        if (listed.part === part || jaroWinkler(part, listed.part) >= floor) {
          for (const id of listed.names) candidates.add(id)
        }
      }
    }
    return this.rank(prepared, candidates, query)
  }

  /** The same search by scoring every name: the baseline the index is measured against. */
  searchLinear(query: SanctionsQuery): SanctionMatch[] {
    return this.rank(prepareQueryName(query.name), this.names.keys(), query)
  }

  private rank(
    prepared: PreparedName,
    candidates: Iterable<number>,
    { country, threshold, limit }: SanctionsQuery,
  ) {
    const code = country?.trim() ? normalizeCountry(country) : undefined
    const best = new Map<number, { score: number; name: ListedName }>()
    for (const id of candidates) {
      const name = this.names[id] as ListedName
      if (code !== undefined && !(this.entries[name.entry] as SanctionEntry).countries.includes(code ?? ''))
        continue
      const score = scoreName(prepared, name)
      if (score < threshold) continue
      const current = best.get(name.entry)
      if (!current || score > current.score) best.set(name.entry, { score, name })
    }
    return [...best.entries()]
      .map(([entry, { score, name }]) => ({
        ...(this.entries[entry] as SanctionEntry),
        score,
        matchedName: name.display,
      }))
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
      .slice(0, limit)
  }
}
