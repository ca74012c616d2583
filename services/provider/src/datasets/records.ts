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

export type SanctionEntryType = 'individual' | 'entity' | 'vessel' | 'aircraft'

/** A sanctioned party: one list entry with its aliases. */
export interface SanctionEntry {
  id: string
  name: string
  type: SanctionEntryType
  programs: string[]
  aliases: string[]
  /** ISO alpha-2 codes from the entry's addresses. */
  countries: string[]
  remarks: string | null
  source: string
  /** The list it comes from (`ofac-sdn`, `ofac-consolidated`, a JSON Lines file's name), once lists are loaded. */
  list?: string
}

export interface Datasets {
  companies: Company[]
  sanctions: SanctionEntry[]
  /** What was loaded from where, for the start-up log. */
  sources: { file: string; kind: 'companies' | 'sanctions'; records: number }[]
}
