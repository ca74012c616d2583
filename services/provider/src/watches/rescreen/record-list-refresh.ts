import { createHash } from 'node:crypto'
import type { Pool, PoolClient } from 'pg'
import type { Logger } from '@pf/service-kit'
import type { SanctionEntry } from '../../datasets/records'
import type { ListsSnapshot } from '../../lists/sanctions-lists'
import { diffListEntries, type ListChange } from './list-change'
import { recordListChange } from './record-list-change'
import { touchedParties } from './rescreen-change'

/** The transaction-scoped advisory lock under which list heads move (not the migrations' or the re-screen's). */
const HEADS_LOCK = 7_240_042

/** What a refresh did to the watches, list by list (`recordListRefresh`). */
export interface RefreshRecord {
  /** Lists whose change was recorded for the re-screen (`rescreenListChanges`), as one change. */
  recorded: string[]
  /** Lists whose watched subjects go back to the screening backlog whole (the hits were not at `before`). */
  rescreenedWhole: string[]
  /** Lists this replica holds at a version the database has already moved past: nothing recorded. */
  refused: string[]
}

interface Head {
  version: string
  generation: string
}

/**
 * Records what a list refresh (an OpenSanctions delta included) changed, so that the watched subjects are
 * re-screened against that only: the lists' changes as one change (`recordListChange`: the re-screen reads
 * every subject once per change). `before`: the lists before the refresh; undefined at start, when the lists
 * just loaded are compared with what the database was brought to.
 *
 * Each list has a head in the database (`watch_list_heads`): the version (`sha256`) the recorded changes bring
 * the hits to. Replicas refresh at different times, so a replica's `before` need not be the head:
 * - head = `before` (or no head yet): the list's change is recorded and its head moves to `after`;
 * - head = `after`: another replica recorded it already;
 * - a refresh to a version that was a head before: this replica is behind the database (a slower download,
 *   an older mirror): its change is refused with a warning, since applying it would take the hits back;
 * - otherwise the hits are at a version this replica never held or no longer holds (a refresh whose recording
 *   failed, a start on lists that changed meanwhile, or went back to an earlier content: at start that is more
 *   likely than a stale source): the entries the hits came from are gone, so no diff can be exact, and every
 *   subject of a watch on the list goes back to the screening backlog, which screens it whole. Refusing here
 *   would leave those hits wrong until the subject itself changes.
 * All in one transaction under `HEADS_LOCK`, so replicas recording at once take turns.
 */
export async function recordListRefresh(
  pool: Pool,
  before: ListsSnapshot | undefined,
  after: ListsSnapshot,
  logger: Logger,
): Promise<RefreshRecord> {
  const record: RefreshRecord = { recorded: [], rescreenedWhole: [], refused: [] }
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query('SELECT pg_advisory_xact_lock($1)', [HEADS_LOCK])
    const heads = await readHeads(client)
    const names = new Set([...(before?.lists ?? []), ...after.lists].map(({ name }) => name))
    // At start, a list the database has a head for and these lists lack was removed meanwhile.
    if (!before) for (const [list, head] of heads) if (head.version !== '') names.add(list)
    const steps: string[] = []
    const merged: ListChange = { added: [], changed: [], removed: [] }
    const moved: string[] = []
    const changed: string[] = []
    for (const list of names) {
      const from = before ? versionIn(before, list) : undefined
      const to = versionIn(after, list)
      const head = heads.get(list)
      if (from === to || head?.version === to) continue
      if (before && from !== undefined && (!head || head.version === from)) {
        const change = diffListEntries(entriesOf(before, list), entriesOf(after, list))
        merged.added.push(...change.added)
        merged.changed.push(...change.changed)
        merged.removed.push(...change.removed)
        // The generation keeps a list that goes back to an earlier content (v1 → v2 → v1 → v2) one step each.
        steps.push(`${list}#${head?.generation ?? 0}:${from}->${to}`)
        changed.push(list)
        moved.push(list)
      } else if (!head) {
        // No head yet, at start: these lists are where the hits are (the screener screened on them).
        moved.push(list)
      } else if (before && (await wasHead(client, list, to))) {
        record.refused.push(list)
      } else {
        await client.query(
          `UPDATE watch_subjects s SET revision = s.revision + 1 FROM watches w
            WHERE w.watch_id = s.watch_id
              AND (w.lists IS NULL OR EXISTS (SELECT 1 FROM unnest(w.lists) l WHERE split_part(l, '/', 1) = $1))`,
          [list],
        )
        record.rescreenedWhole.push(list)
        moved.push(list)
      }
    }
    if (before && steps.length > 0) {
      const touched = touchedParties(merged, { before: before.index.entries, after: after.index.entries })
      // One key per set of steps; hashed, as a refresh of many lists would make it long.
      const key = createHash('sha256').update(steps.join('\n')).digest('hex')
      const versions = Object.fromEntries(after.versionOf)
      // A change of what decides no match (remarks) touches no party: the heads move, nothing to re-screen.
      if (await recordListChange(client, key, { ...touched, versions })) {
        record.recorded.push(...changed)
        logger.info(
          {
            lists: record.recorded,
            added: merged.added.length,
            changed: merged.changed.length,
            removed: merged.removed.length,
            partyEntries: touched.before.length + touched.after.length,
          },
          'list change recorded for the watches',
        )
      }
    }
    for (const list of moved) await moveHead(client, list, versionIn(after, list))
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
  for (const list of record.refused)
    logger.warn(
      { list, version: versionIn(after, list) },
      'list change not recorded for the watches: this replica holds a version the watches have moved past',
    )
  for (const list of record.rescreenedWhole)
    logger.warn(
      { list, version: versionIn(after, list) },
      'the watches were not at this list version: every subject watching the list is screened again',
    )
  return record
}

async function readHeads(client: PoolClient): Promise<Map<string, Head>> {
  const { rows } = await client.query<Head & { list: string }>(
    'SELECT list, version, generation::text FROM watch_list_heads',
  )
  return new Map(rows.map(({ list, ...head }) => [list, head]))
}

async function moveHead(client: PoolClient, list: string, version: string): Promise<void> {
  await client.query(
    `INSERT INTO watch_list_heads (list, version) VALUES ($1, $2)
     ON CONFLICT (list) DO UPDATE SET version = $2, generation = watch_list_heads.generation + 1,
       updated_at = now()`,
    [list, version],
  )
  // A list gone is no version a replica can be behind at.
  if (version !== '')
    await client.query(
      'INSERT INTO watch_list_versions (list, version) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [list, version],
    )
}

async function wasHead(client: PoolClient, list: string, version: string): Promise<boolean> {
  const { rows } = await client.query('SELECT 1 FROM watch_list_versions WHERE list = $1 AND version = $2', [
    list,
    version,
  ])
  return rows.length > 0
}

/** A list's version in `snapshot` (its `sha256`: the content, deltas chained); '' when it holds no such list. */
function versionIn(snapshot: ListsSnapshot, list: string): string {
  return snapshot.lists.find(({ name }) => name === list)?.sha256 ?? ''
}

/** The entries of `list` and its sub-lists in `snapshot`, in list order. */
function entriesOf(snapshot: ListsSnapshot, list: string): SanctionEntry[] {
  const names = new Set(snapshot.selectable.get(list) ?? [])
  return snapshot.index.entries.filter((entry) => names.has(entry.list ?? ''))
}
