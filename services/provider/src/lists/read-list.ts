import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { decodeUtf8 } from '../datasets/decode-utf8'
import type { ListFormat } from '../datasets/detect-list-format'
import { parseBisDpl } from '../datasets/load-bis-dpl'
import { parseSanctionsJsonl } from '../datasets/load-jsonl'
import { OFAC_SETS, parseOfacCsv, type OfacCsvFiles } from '../datasets/load-ofac-csv'
import { parseUnXml } from '../datasets/load-un-xml'
import { cslSubListName, parseUsCsl } from '../datasets/load-us-csl'
import type { FtmLists } from './ftm-lists'
import { fileInput, type ListInput } from './list-input'
import { sanctionsList, type SanctionsList } from './sanctions-list'

/** How a list file of each format becomes a list (`ftm` keeps what it read for its deltas: `FtmLists`). */
export type ListReader = (input: ListInput, ftm: FtmLists) => Promise<SanctionsList>

const OFAC_LABEL = { 'ofac-sdn': 'OFAC SDN', 'ofac-consolidated': 'OFAC Consolidated' } as const

/** A set's files beside its primary one (`input`), each read within the same limit; missing ones are fine. */
async function readOfacSet(input: ListInput, set: keyof typeof OFAC_SETS): Promise<OfacCsvFiles> {
  const dir = dirname(input.path as string)
  const companion = async (name: string) =>
    existsSync(join(dir, name)) ? fileInput(join(dir, name), name, input.maxBytes).read() : undefined
  return {
    primary: await input.read(),
    addresses: await companion(OFAC_SETS[set].addresses),
    aliases: await companion(OFAC_SETS[set].aliases),
  }
}

/**
 * OFAC's legacy CSV: a set's primary file (`sdn.csv`, `cons_prim.csv`) on disk brings its folder's address and
 * alias files; any other OFAC CSV file (or a download) is read alone. `cons_*` files are the consolidated list.
 */
async function readOfac(input: ListInput): Promise<SanctionsList> {
  const name = input.fileName.startsWith('cons_') ? 'ofac-consolidated' : 'ofac-sdn'
  const set = name === 'ofac-sdn' ? 'sdn' : 'consolidated'
  const isSet = input.path !== undefined && input.fileName === OFAC_SETS[set].primary
  const files = isSet ? await readOfacSet(input, set) : { primary: await input.read() }
  const source = isSet ? dirname(input.path as string) : input.shown
  let entries
  try {
    entries = parseOfacCsv(files, OFAC_LABEL[name])
  } catch (error) {
    throw new Error(`${input.shown}: ${(error as Error).message}`, { cause: error })
  }
  const hash = createHash('sha256')
  for (const part of [files.primary, files.addresses, files.aliases]) if (part) hash.update(part)
  return sanctionsList({ name, format: 'ofac-csv', source, sha256: hash.digest('hex') }, entries)
}

async function readJsonl(input: ListInput): Promise<SanctionsList> {
  const text = decodeUtf8(await input.read(), input.shown)
  const name = input.fileName.replace(/\.jsonl$/, '')
  const entries = parseSanctionsJsonl(text, input.path ? basename(input.path) : name)
  return sanctionsList({ name, format: 'jsonl', source: input.shown, sha256: input.sha256() }, entries)
}

async function readUnXml(input: ListInput): Promise<SanctionsList> {
  const { entries, version } = await parseUnXml(input.chunks(), input.shown)
  const fields = { name: 'un-sc-consolidated', format: 'un-xml', source: input.shown, version }
  return sanctionsList({ ...fields, sha256: input.sha256() }, entries)
}

async function readUsCsl(input: ListInput): Promise<SanctionsList> {
  const entries = parseUsCsl(decodeUtf8(await input.read(), input.shown), input.fileName)
  return sanctionsList(
    { name: 'us-csl', format: 'us-csl', source: input.shown, sha256: input.sha256() },
    entries,
    (entry) => ({ name: cslSubListName(entry.source), title: entry.source }),
  )
}

async function readBisDpl(input: ListInput): Promise<SanctionsList> {
  const entries = parseBisDpl(decodeUtf8(await input.read(), input.shown), input.fileName)
  return sanctionsList(
    { name: 'bis-dpl', format: 'bis-dpl', source: input.shown, sha256: input.sha256() },
    entries,
  )
}

/** The reader of each list format. */
export const LIST_READERS: Readonly<Record<ListFormat, ListReader>> = {
  'ofac-csv': readOfac,
  jsonl: readJsonl,
  'un-xml': readUnXml,
  'us-csl': readUsCsl,
  'bis-dpl': readBisDpl,
  ftm: (input, ftm) => ftm.read(input),
}
