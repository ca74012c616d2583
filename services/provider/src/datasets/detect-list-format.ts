/** The sanctions list formats the provider reads; a `SANCTIONS_SOURCES` item may force one (`un-xml:/path`). */
export const LIST_FORMATS = ['ofac-csv', 'jsonl', 'un-xml', 'us-csl', 'bis-dpl', 'ftm'] as const
export type ListFormat = (typeof LIST_FORMATS)[number]

/** What a file is: a list format, an OpenSanctions delta (read only with its export), or unknown. */
export type FileKind = ListFormat | 'ftm-delta' | 'unknown'

export const isListFormat = (name: string): name is ListFormat =>
  (LIST_FORMATS as readonly string[]).includes(name)

/** How much of a file `detectListFormat` needs to see. */
export const DETECT_BYTES = 64 * 1024

function jsonKind(line: string, complete: boolean): FileKind {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    // A first entity longer than what was read: its keys still show what it is.
    if (!complete && /"schema"\s*:/.test(line) && /"properties"\s*:/.test(line)) return 'ftm'
    return 'unknown'
  }
  if (typeof value !== 'object' || value === null) return 'unknown'
  if ('op' in value && 'entity' in value) return 'ftm-delta'
  if ('schema' in value && 'properties' in value) return 'ftm'
  return 'name' in value ? 'jsonl' : 'unknown'
}

/**
 * What a list file is, from its first bytes (at least `DETECT_BYTES`, or the whole file), the one place formats
 * are recognised: UN XML by its `CONSOLIDATED_LIST` root; JSON lines by their first object (FollowTheMoney
 * entities have `schema` and `properties`, OpenSanctions deltas `op` and `entity`, this kit's JSON Lines a
 * `name`); the CSL by its header (`source`, …, `alt_names`); the DPL by its tab-separated header (`Name`,
 * `Street_Address`); OFAC's legacy CSV by a first row of twelve columns starting with a number.
 */
export function detectListFormat(head: Buffer): FileKind {
  const text = head.toString('utf8').replace(/^\uFEFF/, '')
  const start = text.trimStart()
  if (start.startsWith('<')) return /<CONSOLIDATED_LIST[\s>]/.test(start) ? 'un-xml' : 'unknown'
  const newline = start.search(/\r?\n/)
  const first = newline < 0 ? start : start.slice(0, newline)
  if (first.startsWith('{')) return jsonKind(first, newline >= 0 || head.length < DETECT_BYTES)
  const header = first.toLowerCase().replace(/"/g, '')
  if (/(^|,)source,/.test(header) && /(^|,)alt_names(,|$)/.test(header)) return 'us-csl'
  if (/^name\tstreet_address\t/.test(header)) return 'bis-dpl'
  if (/^\d+,/.test(first) && ofacColumns(first) === 12) return 'ofac-csv'
  return 'unknown'
}

/** Columns of an OFAC CSV row: commas outside quotes, plus one. */
function ofacColumns(row: string): number {
  let columns = 1
  let quoted = false
  for (const char of row) {
    if (char === '"') quoted = !quoted
    else if (char === ',' && !quoted) columns += 1
  }
  return columns
}
