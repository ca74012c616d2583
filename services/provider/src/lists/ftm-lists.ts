import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { applyFtmDelta, deltaVersions, readFtmDelta } from '../datasets/load-ftm-delta'
import { readFtmExport } from '../datasets/load-ftm'
import { ListFormatError } from '../datasets/list-format-error'
import type { SanctionEntry } from '../datasets/records'
import { fileInput, type ListInput } from './list-input'
import { sanctionsList, type SanctionsList } from './sanctions-list'

/** An OpenSanctions export as last read: its entries with every delta applied so far. */
interface FtmState {
  /** The export file's identity on disk: another one means reading it again. */
  stamp: string
  entries: Map<string, SanctionEntry>
  /** The last version applied, or taken as already in the export; null without a delta index. */
  version: string | null
  sha256: string
}

/** Where the deltas of an export are: their versions index, and the folder of their files. */
interface DeltaIndex {
  file: string
  dir: string
}

const INDEX_NAMES = ['index.json', 'delta.json']

/**
 * The delta index of an export: `index.json` or `delta.json` holding `versions`, beside the export or in one
 * of its folder's subfolders. Deltas belong to the folder's only FollowTheMoney export, or to the one named
 * `entities.ftm.json` (OpenSanctions' name for its full export).
 */
function findDeltaIndex(exportPath: string): DeltaIndex | undefined {
  const dir = dirname(exportPath)
  const exports = readdirSync(dir).filter((f) => f.endsWith('.ftm.json'))
  if (basename(exportPath) !== 'entities.ftm.json' && exports.length > 1) return undefined
  const folders = [
    dir,
    ...readdirSync(dir)
      .map((f) => join(dir, f))
      .filter((p) => statSync(p).isDirectory()),
  ]
  for (const folder of folders)
    for (const name of INDEX_NAMES) {
      const file = join(folder, name)
      if (existsSync(file) && /"versions"\s*:/.test(readFileSync(file, 'utf8'))) return { file, dir: folder }
    }
  return undefined
}

/** The file of a delta version: `<version>.delta.json`, or OpenSanctions' `<version>/entities.delta.json`. */
function deltaFile(dir: string, version: string): string | undefined {
  return [join(dir, `${version}.delta.json`), join(dir, version, 'entities.delta.json')].find((f) =>
    existsSync(f),
  )
}

/**
 * The versions to apply after `after` (exclusive; null: from the export). From an export just read, versions
 * listed before the first delta file present are taken as already in it; after that, every listed version
 * needs its file (a gap would skip changes), else a `ListFormatError` names the index and the version.
 */
function versionsToApply(index: DeltaIndex, after: string | null): { base: string | null; apply: string[] } {
  const versions = deltaVersions(readFileSync(index.file, 'utf8'), index.file)
  let pending = after === null ? versions : versions.filter((v) => v > after)
  let base = after
  if (after === null) {
    const first = pending.findIndex((v) => deltaFile(index.dir, v) !== undefined)
    base = (first < 0 ? pending.at(-1) : pending[first - 1]) ?? null
    pending = first < 0 ? [] : pending.slice(first)
  }
  const missing = pending.find((v) => deltaFile(index.dir, v) === undefined)
  if (missing)
    throw new ListFormatError(index.file, undefined, `version ${missing} has no delta file in ${index.dir}`)
  return { base, apply: pending }
}

const chain = (previous: string, delta: string) =>
  createHash('sha256')
    .update(previous + delta)
    .digest('hex')

/**
 * OpenSanctions lists in FollowTheMoney JSON lines, kept current by their deltas without reading the export
 * again: each refresh applies, in version order, the delta versions its index lists after the last one applied,
 * to a copy of the entries (a delta that fails leaves the state, and so the index in use, as it was). The
 * export is read again only when the file itself changed.
 */
export class FtmLists {
  private readonly states = new Map<string, FtmState>()

  /** The list of an export (a file on disk, with its deltas; or a download, alone). */
  async read(input: ListInput): Promise<SanctionsList> {
    const name = ftmListName(input)
    const fields = { name, format: 'ftm', source: input.shown }
    if (!input.path) {
      const entries = await readFtmExport(input.chunks(), input.shown)
      return sanctionsList({ ...fields, sha256: input.sha256() }, [...entries.values()])
    }
    const state = await this.update(input.path, input.maxBytes)
    return sanctionsList({ ...fields, sha256: state.sha256, version: state.version }, [
      ...state.entries.values(),
    ])
  }

  private async update(path: string, maxBytes: number): Promise<FtmState> {
    const { size, mtimeMs, ino } = statSync(path)
    const stamp = `${ino}:${size}:${mtimeMs}`
    const previous = this.states.get(path)
    const index = findDeltaIndex(path)
    let state = previous?.stamp === stamp ? previous : await this.readExport(path, stamp, maxBytes)
    if (index) {
      const { base, apply } = versionsToApply(index, state === previous ? state.version : null)
      if (state !== previous) state = { ...state, version: base }
      state = await this.applyDeltas(state, index, apply, maxBytes)
    }
    this.states.set(path, state)
    return state
  }

  private async readExport(path: string, stamp: string, maxBytes: number): Promise<FtmState> {
    const input = fileInput(path, basename(path), maxBytes)
    const entries = await readFtmExport(input.chunks(), path)
    return { stamp, entries, version: null, sha256: input.sha256() }
  }

  private async applyDeltas(
    state: FtmState,
    index: DeltaIndex,
    versions: string[],
    maxBytes: number,
  ): Promise<FtmState> {
    if (versions.length === 0) return state
    const entries = new Map(state.entries)
    let sha256 = state.sha256
    for (const version of versions) {
      const file = deltaFile(index.dir, version) as string
      const input = fileInput(file, basename(file), maxBytes)
      applyFtmDelta(entries, await readFtmDelta(input.chunks(), file))
      sha256 = chain(sha256, input.sha256())
    }
    return { ...state, entries, version: versions.at(-1) as string, sha256 }
  }
}

/**
 * An OpenSanctions list's name: its dataset's, the folder of an `entities.ftm.json` (OpenSanctions publishes
 * `…/<dataset>/entities.ftm.json`), else the file's name without `.ftm.json` (or `.json`).
 */
export function ftmListName(input: ListInput): string {
  if (input.fileName === 'entities.ftm.json' && input.path) return basename(dirname(input.path))
  return input.fileName.replace(/(\.ftm)?\.jsonl?$/, '')
}
