import { ftmEntry, requireFtmEntity } from './ftm-entity'
import { readJsonLines } from './read-json-lines'
import type { SanctionEntry } from './records'

/**
 * An OpenSanctions export in FollowTheMoney JSON lines (`entities.ftm.json`: one entity a line), read as a
 * stream: the screened entities by id (`ftmEntry`; other schemas are skipped). A line that is not JSON or not
 * an entity is a `ListFormatError` naming it.
 */
export async function readFtmExport(
  chunks: AsyncIterable<Uint8Array>,
  file: string,
): Promise<Map<string, SanctionEntry>> {
  const entries = new Map<string, SanctionEntry>()
  for await (const { value, line } of readJsonLines(chunks, file)) {
    const entity = requireFtmEntity(value, file, line)
    const entry = ftmEntry(entity)
    if (entry) entries.set(entity.id, entry)
  }
  return entries
}
