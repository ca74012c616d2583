import { ftmEntry, requireFtmEntity } from './ftm-entity'
import { ListFormatError } from './list-format-error'
import { readJsonLines } from './read-json-lines'
import type { SanctionEntry } from './records'

/** One operation of an OpenSanctions delta: an entity added, changed (the whole entity) or deleted. */
export interface FtmDeltaOp {
  op: 'ADD' | 'MOD' | 'DEL'
  id: string
  /** The entity's entry; undefined for DEL, or for an entity no longer screened (another schema). */
  entry?: SanctionEntry
}

/**
 * An OpenSanctions delta file (`<version>.delta.json`: one `{"op": "ADD"|"MOD"|"DEL", "entity": …}` a line),
 * read whole before anything is applied: an operation that cannot be read is a `ListFormatError` naming its
 * line, and nothing of the delta is applied.
 */
export async function readFtmDelta(chunks: AsyncIterable<Uint8Array>, file: string): Promise<FtmDeltaOp[]> {
  const ops: FtmDeltaOp[] = []
  for await (const { value, line } of readJsonLines(chunks, file)) {
    const { op, entity } = (value ?? {}) as { op?: unknown; entity?: unknown }
    if (op !== 'ADD' && op !== 'MOD' && op !== 'DEL')
      throw new ListFormatError(file, { line }, `op is ${JSON.stringify(op)}, not ADD, MOD or DEL`)
    if (op === 'DEL') {
      const id = (entity as { id?: unknown } | null)?.id
      if (typeof id !== 'string' || !id) throw new ListFormatError(file, { line }, 'a DEL without entity.id')
      ops.push({ op, id })
    } else {
      const full = requireFtmEntity(entity, file, line)
      ops.push({ op, id: full.id, entry: ftmEntry(full) })
    }
  }
  return ops
}

/**
 * Applies a delta's operations in order to entries by id. Each operation carries the whole entity, so applying
 * one again (a delta the export already holds) leaves the same entries.
 */
export function applyFtmDelta(entries: Map<string, SanctionEntry>, ops: readonly FtmDeltaOp[]): void {
  for (const { id, entry } of ops) {
    if (entry) entries.set(id, entry)
    else entries.delete(id)
  }
}

/**
 * The versions of an OpenSanctions delta index (`index.json` or `delta.json`: `{"versions": {"<version>":
 * "<url>", …}}`), oldest first (versions are timestamps: `20240527194702-wnk`); anything else is a
 * `ListFormatError`.
 */
export function deltaVersions(text: string, file: string): string[] {
  let index: unknown
  try {
    index = JSON.parse(text)
  } catch (error) {
    throw new ListFormatError(file, undefined, `not JSON (${(error as Error).message})`)
  }
  const versions = (index as { versions?: unknown } | null)?.versions
  if (typeof versions !== 'object' || versions === null || Array.isArray(versions))
    throw new ListFormatError(file, undefined, 'not a delta index: no "versions" object')
  return Object.keys(versions).sort()
}
