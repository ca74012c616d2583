import type { SanctionEntry, SanctionEntryType } from '../datasets/records'
import { normalizeCountry } from '../datasets/normalize-country'
import { birthYearPenalty, birthYearRanges } from '../matching/birth-year'

/** The kinds of party `parameters.entityType` names, and the entry types each stands for. */
export const ENTITY_TYPES: Readonly<Record<string, SanctionEntryType>> = {
  person: 'individual',
  organization: 'entity',
  vessel: 'vessel',
  aircraft: 'aircraft',
}

/** A query's choices beyond the name: which entries are screened, and what may lower their score. */
export interface ScreeningChoices {
  /** Entries with an address in this country (any spelling). */
  country?: string | null
  /** Entries of these lists or sub-lists only (names as entries carry them in `list`). */
  lists?: ReadonlySet<string>
  /** `person`, `organization`, `vessel` or `aircraft` (`ENTITY_TYPES`). */
  entityType?: string | null
  /** A year of birth: entries whose listed years are all more than a year away score lower. */
  birthYear?: number | null
}

/**
 * A query's choices applied to entries, the same for the index and the reference scan: which entries are
 * screened, and the points an entry's birth years take off. An entry whose list does not say what it is
 * (`unknown`) stays in whatever `entityType` asks: a filter must not hide a party.
 */
export class ScreeningRules {
  private readonly country: string | null | undefined
  private readonly type: SanctionEntryType | undefined

  constructor(
    private readonly entries: readonly SanctionEntry[],
    readonly choices: ScreeningChoices,
  ) {
    this.country = choices.country?.trim() ? normalizeCountry(choices.country) : undefined
    this.type = choices.entityType ? ENTITY_TYPES[choices.entityType] : undefined
  }

  /** Whether entry `index` is screened at all. */
  allows(index: number): boolean {
    const entry = this.entries[index] as SanctionEntry
    if (this.country !== undefined && !entry.countries.includes(this.country ?? '')) return false
    if (this.type && entry.type !== this.type && entry.type !== 'unknown') return false
    return !this.choices.lists || this.choices.lists.has(entry.list ?? '')
  }

  /** The points entry `index` loses for the query's birth year (`birthYearPenalty`). */
  birthPenalty(index: number): number {
    const year = this.choices.birthYear ?? undefined
    if (year === undefined) return 0
    return birthYearPenalty(year, birthYearRanges((this.entries[index] as SanctionEntry).birthDates))
  }
}
