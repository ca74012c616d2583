import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { parseSanctionsJsonl } from '../datasets/load-jsonl'
import { OFAC_SETS, parseOfacCsv, readOfacFiles, type OfacCsvFiles } from '../datasets/load-ofac-csv'
import type { SanctionEntry } from '../datasets/records'
import { redactSource } from './redact-source'

/** One loaded sanctions list: what `/api/lists` reports, and its entries. */
export interface SanctionsList {
  /** `ofac-sdn`, `ofac-consolidated`, or a JSON Lines file's name without `.jsonl`. */
  name: string
  /** Where it was read from; a URL without credentials or query (`redactSource`). */
  source: string
  records: number
  /** SHA-256 (hex) of the bytes the list was read from: the version a screening answer was computed on. */
  sha256: string
  loadedAt: string
  entries: SanctionEntry[]
}

export interface SourceOptions {
  /** Limit of one download. */
  timeoutMs: number
  /** Largest download, in bytes. */
  maxBytes: number
}

const sha256 = (...parts: (Buffer | undefined)[]) => {
  const hash = createHash('sha256')
  for (const part of parts) if (part) hash.update(part)
  return hash.digest('hex')
}

function list(name: string, source: string, entries: SanctionEntry[], hash: string): SanctionsList {
  for (const entry of entries) entry.list = name
  return { name, source, records: entries.length, sha256: hash, loadedAt: new Date().toISOString(), entries }
}

function ofacList(name: string, source: string, files: OfacCsvFiles): SanctionsList {
  const label = name === 'ofac-sdn' ? 'OFAC SDN' : 'OFAC Consolidated'
  return list(name, source, parseOfacCsv(files, label), sha256(files.primary, files.addresses, files.aliases))
}

/**
 * Fetches a list. Credentials in the URL (`https://user:pw@host/…`) go in a Basic `Authorization` header
 * (fetch refuses them in the URL); errors name the URL as `redactSource` shows it, never its secrets.
 */
async function download(source: string, { timeoutMs, maxBytes }: SourceOptions): Promise<Buffer> {
  const url = new URL(source)
  const shown = redactSource(source)
  const headers: Record<string, string> = {}
  if (url.username || url.password) {
    const userinfo = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
    headers.authorization = `Basic ${Buffer.from(userinfo).toString('base64')}`
    url.username = ''
    url.password = ''
  }
  let response: Response
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' })
  } catch (error) {
    const reason = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message
    throw new Error(`${shown} could not be fetched: ${reason}`)
  }
  if (!response.ok) throw new Error(`${shown} answered ${response.status}`)
  const declared = Number(response.headers.get('content-length'))
  if (declared > maxBytes) throw new Error(`${shown} is larger than ${maxBytes} bytes`)
  const bytes = Buffer.from(await response.arrayBuffer())
  if (bytes.length > maxBytes) throw new Error(`${shown} is larger than ${maxBytes} bytes`)
  return bytes
}

const isListJsonl = (file: string) => file.endsWith('.jsonl') && file.includes('sanctions')

/** Whether a folder holds a list `loadSanctionsSource` reads: an OFAC set or a `*sanctions*.jsonl`. */
export function holdsSanctionsList(dir: string): boolean {
  const files = readdirSync(dir)
  return (
    files.includes(OFAC_SETS.sdn.primary) ||
    files.includes(OFAC_SETS.consolidated.primary) ||
    files.some(isListJsonl)
  )
}

/** A list file's bytes; an error names the file (Node's EISDIR does not). */
function readListFile(path: string): Buffer {
  try {
    return readFileSync(path)
  } catch (error) {
    throw new Error(`${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, {
      cause: error,
    })
  }
}

/** An OFAC set of a folder; an error names its file (the CSV parser's own messages do not). */
function ofacSet(dir: string, set: keyof typeof OFAC_SETS): SanctionsList {
  const name = set === 'sdn' ? 'ofac-sdn' : 'ofac-consolidated'
  try {
    return ofacList(name, dir, readOfacFiles(dir, set))
  } catch (error) {
    throw new Error(`${join(dir, OFAC_SETS[set].primary)}: ${(error as Error).message}`, { cause: error })
  }
}

/**
 * The lists one `SANCTIONS_SOURCES` item holds:
 * - a folder: OFAC's SDN set (`sdn.csv`, `add.csv`, `alt.csv`) and/or its consolidated set (`cons_prim.csv`,
 *   `cons_add.csv`, `cons_alt.csv`), and every `*sanctions*.jsonl` in it;
 * - a `.jsonl` file; an `sdn.csv` or `cons_prim.csv` file (its folder's address and alias files are read too);
 * - an http(s) URL of a `.jsonl` file, or of an OFAC `sdn.csv` / `cons_prim.csv` (entries only).
 */
export async function loadSanctionsSource(source: string, options: SourceOptions): Promise<SanctionsList[]> {
  if (/^https?:\/\//i.test(source)) {
    const path = new URL(source).pathname
    const shown = redactSource(source)
    const bytes = await download(source, options)
    if (path.endsWith('.jsonl')) {
      const name = basename(path, '.jsonl')
      return [list(name, shown, parseSanctionsJsonl(bytes.toString('utf8'), name), sha256(bytes))]
    }
    const consolidated = basename(path).startsWith('cons_')
    return [ofacList(consolidated ? 'ofac-consolidated' : 'ofac-sdn', shown, { primary: bytes })]
  }
  if (!existsSync(source)) throw new Error(`sanctions source ${source} does not exist`)
  if (!statSync(source).isDirectory()) {
    if (source.endsWith('.jsonl')) {
      const bytes = readListFile(source)
      const name = basename(source, '.jsonl')
      return [
        list(name, source, parseSanctionsJsonl(bytes.toString('utf8'), basename(source)), sha256(bytes)),
      ]
    }
    const file = basename(source)
    if (file === OFAC_SETS.sdn.primary) return loadSanctionsSource(join(source, '..'), options)
    if (file === OFAC_SETS.consolidated.primary) return loadSanctionsSource(join(source, '..'), options)
    throw new Error(`sanctions source ${source}: not a folder, a .jsonl file, sdn.csv or cons_prim.csv`)
  }
  const files = readdirSync(source).sort()
  const lists: SanctionsList[] = []
  if (files.includes(OFAC_SETS.sdn.primary)) lists.push(ofacSet(source, 'sdn'))
  if (files.includes(OFAC_SETS.consolidated.primary)) lists.push(ofacSet(source, 'consolidated'))
  for (const file of files.filter(isListJsonl)) {
    const bytes = readListFile(join(source, file))
    lists.push(
      list(
        basename(file, '.jsonl'),
        join(source, file),
        parseSanctionsJsonl(bytes.toString('utf8'), file),
        sha256(bytes),
      ),
    )
  }
  if (lists.length === 0)
    throw new Error(`sanctions source ${source} holds no list (see the provider README)`)
  return lists
}
