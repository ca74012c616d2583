import { existsSync, readdirSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { redactUrl } from '@pf/service-kit'
import { detectListFormat, isListFormat, type ListFormat } from '../datasets/detect-list-format'
import { ListFormatError } from '../datasets/list-format-error'
import { OFAC_SETS } from '../datasets/load-ofac-csv'
import { downloadList } from './download-list'
import { FtmLists } from './ftm-lists'
import { bytesInput, fileInput, type ListInput } from './list-input'
import { LIST_READERS } from './read-list'
import type { SanctionsList } from './sanctions-list'

export type { SanctionsList, SubList } from './sanctions-list'

export interface SourceOptions {
  /** Limit of one download. */
  timeoutMs: number
  /** Largest list file read, in bytes: a download's counted after decompression, as they arrive. */
  maxBytes: number
  /** What the OpenSanctions lists read so far hold, for their deltas (one per `SanctionsLists`). */
  ftm?: FtmLists
}

// Files of a folder that belong to another file's list: OFAC's address, alias and comment files.
const COMPANIONS = new Set([
  OFAC_SETS.sdn.addresses,
  OFAC_SETS.sdn.aliases,
  OFAC_SETS.consolidated.addresses,
  OFAC_SETS.consolidated.aliases,
  'cons_comments.csv',
])

// Names that promise a list (today's names, and the new formats' usual ones): such a file is read by its name
// when its content is not recognised (so its own error is told), and one that cannot be read is refused.
const LIST_NAMES = /(\.ftm\.json|\.xml|sanctions.*\.jsonl|^sdn\.csv|^cons_prim\.csv)$/
const FORMAT_BY_NAME: [RegExp, ListFormat][] = [
  [/^(sdn|cons_prim)\.csv$/, 'ofac-csv'],
  [/sanctions.*\.jsonl$/, 'jsonl'],
]

/** What a folder's file is: its content's format, else the one its name promises (undefined: not a list). */
function folderFormat(
  dir: string,
  file: string,
  maxBytes: number,
): { input: ListInput; format: ListFormat } | undefined {
  const path = join(dir, file)
  const promised = LIST_NAMES.test(file)
  if (!statSync(path).isFile()) {
    if (promised)
      throw new Error(`${path} cannot be read (${statSync(path).isDirectory() ? 'EISDIR' : 'not a file'})`)
    return undefined
  }
  const input = fileInput(path, file, maxBytes)
  const format = detectListFormat(input.head())
  if (isListFormat(format) && (format !== 'jsonl' || /sanctions.*\.jsonl$/.test(file)))
    return { input, format }
  const byName = FORMAT_BY_NAME.find(([pattern]) => pattern.test(file))?.[1]
  if (byName) return { input, format: byName }
  if (promised && format !== 'ftm-delta') formatOf(input, undefined)
  return undefined
}

/**
 * The list files of a folder, each with its format: every file whose content is a list format, but JSON Lines
 * only as `*sanctions*.jsonl` (a data folder also holds companies in JSON Lines). Subfolders are not read
 * (an OpenSanctions delta folder is its export's).
 */
function folderLists(dir: string, maxBytes: number): { input: ListInput; format: ListFormat }[] {
  return readdirSync(dir)
    .sort()
    .filter((file) => !COMPANIONS.has(file))
    .map((file) => folderFormat(dir, file, maxBytes))
    .filter((found) => found !== undefined)
}

/** Whether a folder holds a list `loadSanctionsSource` reads (a file that promises one and is broken throws). */
export function holdsSanctionsList(dir: string): boolean {
  // Only their first bytes are read here.
  return folderLists(dir, Number.POSITIVE_INFINITY).length > 0
}

/** A source's forced format (`un-xml:/data/consolidated.xml`), and the rest. */
function splitFormat(source: string): { format?: ListFormat; location: string } {
  const match = /^([a-z-]+):(?!\/\/)(.+)$/.exec(source) ?? /^([a-z-]+):(https?:\/\/.+)$/.exec(source)
  if (match && isListFormat(match[1] as string))
    return { format: match[1] as ListFormat, location: match[2] as string }
  return { location: source }
}

/** What a single file is, by its content unless forced; a file that is no list format is refused. */
function formatOf(input: ListInput, forced: ListFormat | undefined): ListFormat {
  if (forced) return forced
  const kind = detectListFormat(input.head())
  if (isListFormat(kind)) return kind
  const why = kind === 'ftm-delta' ? 'an OpenSanctions delta, read with its export' : 'not a list format'
  throw new ListFormatError(input.shown, undefined, `${why} (see the provider README, Screening)`)
}

/**
 * The lists one `SANCTIONS_SOURCES` item holds, each format recognised from its content (a `<format>:` prefix
 * forces one: `ofac-csv`, `jsonl`, `un-xml`, `us-csl`, `bis-dpl`, `ftm`):
 * - a folder: every list file in it (`folderLists`);
 * - a file: its list (an OFAC `sdn.csv` or `cons_prim.csv` brings its folder's address and alias files, an
 *   OpenSanctions export its deltas);
 * - an http(s) URL: the file it answers (alone).
 * A file that cannot be read as its format is an error naming the file and the position: nothing is kept.
 */
export async function loadSanctionsSource(source: string, options: SourceOptions): Promise<SanctionsList[]> {
  const { format, location } = splitFormat(source)
  const ftm = options.ftm ?? new FtmLists()
  if (/^https?:\/\//i.test(location)) {
    const bytes = await downloadList(location, options)
    const fileName = basename(new URL(location).pathname)
    const input = bytesInput(bytes, redactUrl(location), fileName, options.maxBytes)
    return [await LIST_READERS[formatOf(input, format)](input, ftm)]
  }
  if (!existsSync(location)) throw new Error(`sanctions source ${location} does not exist`)
  if (!statSync(location).isDirectory()) {
    const input = fileInput(location, basename(location), options.maxBytes)
    return [await LIST_READERS[formatOf(input, format)](input, ftm)]
  }
  const files = folderLists(location, options.maxBytes).filter((file) => !format || file.format === format)
  if (files.length === 0)
    throw new Error(`sanctions source ${location} holds no list (see the provider README)`)
  const lists: SanctionsList[] = []
  for (const { input, format: found } of files) lists.push(await LIST_READERS[found](input, ftm))
  return lists
}
