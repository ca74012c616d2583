import type { NameKind } from '../matching/name-weight'

export type { NameKind } from '../matching/name-weight'

/** A company as the companies search returns it (this kit's record format; the spec leaves it open). */
export interface Company {
  id: string
  name: string
  /** ISO 3166-1 alpha-2, or null when the source's country is unknown. */
  country: string | null
  countryName: string | null
  industry: string | null
  city: string | null
  source: string
}

/** What a listed party is; `unknown` when its list does not say (most of the DPL, part of the CSL). */
export type SanctionEntryType = 'individual' | 'entity' | 'vessel' | 'aircraft' | 'unknown'

/** One name of a listed party, with what its list says about it. */
export interface ListedName {
  name: string
  kind: NameKind
  /** The list's own word for the name's quality when it gives one (UN: Good, Low, a.k.a., f.k.a.). */
  quality?: string
  /** ISO 15924 code of the script its letters are written in (`Latn`, `Cyrl`, `Arab`, …; `detectScript`). */
  script: string
}

/** A sanctioned party: one list entry with its aliases. */
export interface SanctionEntry {
  id: string
  name: string
  type: SanctionEntryType
  programs: string[]
  /** Every name but the primary one, as listed (weak, former and original-script names included). */
  aliases: string[]
  /** ISO alpha-2 codes from the entry's addresses. */
  countries: string[]
  remarks: string | null
  source: string
  /** The list it comes from (`ofac-sdn`, `un-sc-consolidated`, `us-csl/sdn`, …), once lists are loaded. */
  list?: string
  /**
   * `name` and `aliases` with what the list says of each (kind, quality, script), in the same order: the primary
   * name first. Absent: every alias is a plain alias (OFAC CSV, JSON Lines). Read it with `listedNames`.
   */
  names?: ListedName[]
  /** Dates of birth as listed: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or a range of years `YYYY/YYYY`. */
  birthDates?: string[]
  /** ISO alpha-2 codes of its nationalities or citizenships. */
  nationalities?: string[]
  /**
   * The party's identifiers across lists in OpenSanctions' scheme (`ofac-<ent_num>`, `unsc-<DATAID>`, an
   * OpenSanctions id and its `referents`): entries sharing one are one party, one hit naming all their lists.
   */
  sameAs?: string[]
}

export interface Datasets {
  companies: Company[]
  sanctions: SanctionEntry[]
  /** What was loaded from where, for the start-up log. */
  sources: { file: string; kind: 'companies' | 'sanctions'; records: number }[]
}
