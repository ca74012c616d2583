import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { normalizeCountry } from '../search/normalize-country'
import type { SanctionEntry, SanctionEntryType } from './records'

const DOS_EOF = String.fromCharCode(0x1a)

// OFAC's legacy CSV: no header, Latin-1, CRLF, "-0-" for null, and some files end with a 0x1A (DOS EOF) byte.
function readOfacRows(path: string): string[][] {
  let text = readFileSync(path).toString('latin1').trimEnd()
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

/**
 * Loads an OFAC SDN set from a folder: `sdn.csv` (ent_num, SDN_Name, SDN_Type, Program, …, Remarks), and when
 * present `add.csv` (addresses: their countries) and `alt.csv` (aliases).
 */
export function loadOfacCsv(dir: string, source = 'OFAC SDN'): SanctionEntry[] {
  const entries = new Map<string, SanctionEntry>()
  for (const [id, name, type, program, , , , , , , , remarks] of readOfacRows(join(dir, 'sdn.csv'))) {
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
    })
  }
  const addresses = join(dir, 'add.csv')
  if (existsSync(addresses)) {
    for (const [id, , , , country] of readOfacRows(addresses)) {
      const entry = entries.get(id ?? '')
      const code = normalizeCountry(country)
      if (entry && code && !entry.countries.includes(code)) entry.countries.push(code)
    }
  }
  const aliases = join(dir, 'alt.csv')
  if (existsSync(aliases)) {
    for (const [id, , , alias] of readOfacRows(aliases)) {
      const entry = entries.get(id ?? '')
      if (entry && alias && !entry.aliases.includes(alias)) entry.aliases.push(alias)
    }
  }
  return [...entries.values()]
}
