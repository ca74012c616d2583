import { normalizeCountry } from '../src/datasets/normalize-country'
import type { SanctionEntry } from '../src/datasets/records'
import { explainScore, scoreName, type ScoreExplanation } from '../src/matching/name-score'
import { prepareListedName, prepareQueryName, type PreparedName } from '../src/matching/prepare-name'
import {
  rankHits,
  type ListedNames,
  type NameHit,
  type SanctionMatch,
  type Screening,
} from '../src/screening/rank-hits'
import type { SanctionsQuery } from '../src/screening/sanctions-index'

/**
 * The reference screening: every name and alias scored with `scoreName`, no pre-filter. What the index must
 * return exactly (tests compare them), and the baseline its speed is measured against (`pnpm bench`). The
 * service never runs it: it lives with the tests, built from the same scorer and ranking as the index.
 */
export class SanctionsScan implements ListedNames {
  private constructor(
    readonly entries: readonly SanctionEntry[],
    private readonly names: { entry: number; display: string; prepared: PreparedName }[],
  ) {}

  static build(entries: readonly SanctionEntry[]): SanctionsScan {
    return new SanctionsScan(
      entries,
      entries.flatMap((entry, index) =>
        [entry.name, ...entry.aliases].map((display) => ({
          entry: index,
          display,
          prepared: prepareListedName(display),
        })),
      ),
    )
  }

  display(name: number): string {
    return this.names[name]!.display
  }

  explain(query: PreparedName, name: number): ScoreExplanation {
    return explainScore(query, this.names[name]!.prepared)
  }

  /** The best `limit` entries reaching the threshold, best first. */
  search(query: SanctionsQuery): SanctionMatch[] {
    return this.screen(query).matches
  }

  /** `search`, and how many entries reached the threshold in all (more than `limit` means it was cut). */
  screen({ name, country, threshold, limit }: SanctionsQuery): Screening {
    const query = prepareQueryName(name)
    const code = country?.trim() ? normalizeCountry(country) : undefined
    const hits: NameHit[] = []
    this.names.forEach((listed, id) => {
      if (code !== undefined && !this.entries[listed.entry]!.countries.includes(code ?? '')) return
      const score = scoreName(query, listed.prepared)
      if (score >= threshold) hits.push({ name: id, entry: listed.entry, score })
    })
    return rankHits(hits, query, limit, this)
  }
}
