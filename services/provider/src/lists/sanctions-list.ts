import type { SanctionEntry } from '../datasets/records'

/** A part of a list that can be screened on its own (each `source` of the US CSL). */
export interface SubList {
  /** `<list>/<part>`, as `parameters.lists` names it (`us-csl/sdn`). */
  name: string
  /** What the list calls it ("Specially Designated Nationals (SDN) - Treasury Department"). */
  title: string
  records: number
}

/** One loaded sanctions list: what `/api/lists` reports, and its entries. */
export interface SanctionsList {
  /** `ofac-sdn`, `ofac-consolidated`, `un-sc-consolidated`, `us-csl`, `bis-dpl`, an OpenSanctions dataset, or a
   *  JSON Lines file's name without `.jsonl`. */
  name: string
  /** Its format (`ofac-csv`, `jsonl`, `un-xml`, `us-csl`, `bis-dpl`, `ftm`). */
  format: string
  source: string
  records: number
  /** SHA-256 (hex) of the bytes the list was read from (with deltas: chained, `sha256(previous + delta's)`). */
  sha256: string
  /** The publisher's version when the list states one (UN `dateGenerated`, an OpenSanctions delta version),
   *  else its `sha256`: what every hit names. */
  version: string
  loadedAt: string
  /** Listed names longer than `SANCTIONS_MAX_NAME_LENGTH`, cut at load (`cutLongNames`). */
  namesCut: number
  sublists?: SubList[]
  entries: SanctionEntry[]
}

/** A list of entries read from `source`, each entry marked with its list (or sub-list) name. */
export function sanctionsList(
  fields: Pick<SanctionsList, 'name' | 'format' | 'source' | 'sha256'> & { version?: string | null },
  entries: SanctionEntry[],
  subListOf?: (entry: SanctionEntry) => { name: string; title: string },
): SanctionsList {
  const sublists = new Map<string, SubList>()
  for (const entry of entries) {
    const sub = subListOf?.(entry)
    entry.list = sub ? `${fields.name}/${sub.name}` : fields.name
    if (!sub) continue
    const known = sublists.get(entry.list) ?? { name: entry.list, title: sub.title, records: 0 }
    known.records += 1
    sublists.set(entry.list, known)
  }
  return {
    ...fields,
    version: fields.version || fields.sha256,
    records: entries.length,
    loadedAt: new Date().toISOString(),
    namesCut: 0,
    ...(subListOf ? { sublists: [...sublists.values()] } : {}),
    entries,
  }
}
