import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { normalizeCountry } from './normalize-country'
import type { SanctionEntry, SanctionEntryType } from './records'

const DOS_EOF = String.fromCharCode(0x1a)

// OFAC's legacy CSV: no header, Latin-1, CRLF, "-0-" for null, and some files end with a 0x1A (DOS EOF) byte.
function readOfacRows(bytes: Buffer): string[][] {
  let text = bytes.toString('latin1').trimEnd()
  if (text.endsWith(DOS_EOF)) text = text.slice(0, -1)
  const rows = parse(text, {
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    trim: true,
  }) as string[][]
  return rows.map((row) => row.map((cell) => (cell === '-0-' ? '' : cell)))
}

const TYPES: Record<string, SanctionEntryType> = {
  individual: 'individual',
  vessel: 'vessel',
  aircraft: 'aircraft',
}

/** The files of one OFAC set: the entries, and when present the addresses and the alternate names. */
export interface OfacCsvFiles {
  primary: Buffer
  addresses?: Buffer
  aliases?: Buffer
}

/** The file names of OFAC's two legacy CSV sets. */
export const OFAC_SETS = {
  sdn: { primary: 'sdn.csv', addresses: 'add.csv', aliases: 'alt.csv' },
  consolidated: { primary: 'cons_prim.csv', addresses: 'cons_add.csv', aliases: 'cons_alt.csv' },
} as const

/** Reads a set's files from a folder (missing addresses or aliases are fine). */
export function readOfacFiles(dir: string, set: keyof typeof OFAC_SETS): OfacCsvFiles {
  const names = OFAC_SETS[set]
  const optional = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name)) : undefined)
  return {
    primary: readFileSync(join(dir, names.primary)),
    addresses: optional(names.addresses),
    aliases: optional(names.aliases),
  }
}

/**
 * Loads an OFAC SDN set from a folder: `sdn.csv` (ent_num, SDN_Name, SDN_Type, Program, …, Remarks), and when
 * present `add.csv` (addresses: their countries) and `alt.csv` (aliases).
 */
export function loadOfacCsv(dir: string, source = 'OFAC SDN'): SanctionEntry[] {
  return parseOfacCsv(readOfacFiles(dir, 'sdn'), source)
}

/**
 * Entries of an OFAC legacy CSV set (SDN or consolidated: the same columns): `ent_num, Name, Type, Program, …,
 * Remarks`; addresses give the countries (`ent_num, Add_num, Address, City, Country, …`), alternates the aliases.
 */
export function parseOfacCsv({ primary, addresses, aliases }: OfacCsvFiles, source: string): SanctionEntry[] {
  const entries = new Map<string, SanctionEntry>()
  for (const [id, name, type, program, , , , , , , , remarks] of readOfacRows(primary)) {
    if (!id || !name) continue
    entries.set(id, {
      id,
      name,
      type: TYPES[(type ?? '').toLowerCase()] ?? 'entity',
      programs: (program ?? '')
        .split(/\]\s*\[/)
        .map((p) => p.replace(/[[\]]/g, '').trim())
        .filter(Boolean),
      aliases: [],
      countries: [],
      remarks: remarks || null,
      source,
      // OpenSanctions' id for an OFAC entry: an FtM entity naming it among its referents is the same party.
      sameAs: [`ofac-${id}`],
    })
  }
  if (addresses) {
    for (const [id, , , , country] of readOfacRows(addresses)) {
      const entry = entries.get(id ?? '')
      const code = normalizeCountry(country)
      if (entry && code && !entry.countries.includes(code)) entry.countries.push(code)
    }
  }
  if (aliases) {
    for (const [id, , , alias] of readOfacRows(aliases)) {
      const entry = entries.get(id ?? '')
      if (entry && alias && !entry.aliases.includes(alias)) entry.aliases.push(alias)
    }
  }
  return [...entries.values()]
}
