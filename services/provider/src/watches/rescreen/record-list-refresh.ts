import type { Pool, PoolClient } from 'pg'
import type { Logger } from '@pf/service-kit'
import type { SanctionEntry } from '../../datasets/records'
import type { ListsSnapshot } from '../../lists/sanctions-lists'
import { diffListEntries } from './list-change'
import { recordListChange, type RecordedChange } from './record-list-change'
import { touchedParties } from './rescreen-change'

/** The transaction-scoped advisory lock under which list heads move (not the migrations' or the re-screen's). */
const HEADS_LOCK = 7_240_042

/** What a refresh did to the watches, list by list (`recordListRefresh`). */
export interface RefreshRecord {
  /** Lists whose change was recorded for the re-screen (`rescreenListChanges`). */
  recorded: string[]
  /** Lists whose watched subjects go back to the screening backlog whole (the hits were not at `before`). */
  rescreenedWhole: string[]
  /** Lists this replica holds at a version the database has already moved past: nothing recorded. */
  refused: string[]
}

/**
 * Records what a list refresh (an OpenSanctions delta included) changed, list by list, so that the watched
 * subjects are re-screened against that only. `before`: the lists before the refresh; undefined at start, when
 * the lists just loaded are compared with what the database was brought to.
 *
 * Each list has a head in the database (`watch_list_heads`): the version (`sha256`) the recorded changes bring
 * the hits to. Replicas refresh at different times, so a replica's `before` need not be the head:
 * - head = `before` (or no head yet): the change is recorded (`recordListChange`) and the head moves to `after`;
 * - head = `after`: another replica recorded it already;
 * - `after` was a head before: this replica is behind the database (a slower download, an older mirror): its
 *   change is refused with a warning, since applying it would take the hits back to an older list;
 * - otherwise the hits are at a version this replica never held (a refresh whose recording failed, a start on
 *   lists that changed meanwhile): the entries the hits came from are gone, so no diff can be exact, and every
 *   subject of a watch on the list goes back to the screening backlog, which screens it whole. Refusing here
 *   would leave those hits wrong until the subject itself changes.
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
    const names = new Set([...(before?.lists ?? []), ...after.lists].map(({ name }) => name))
    if (!before) {
      // At start, a list the database has a head for and these lists lack was removed meanwhile.
      const { rows } = await client.query<{ list: string }>(
        `SELECT list FROM watch_list_heads WHERE version <> ''`,
      )
      for (const { list } of rows) names.add(list)
    }
    for (const list of names) {
      const from = before ? versionIn(before, list) : undefined
      const to = versionIn(after, list)
      if (from === to) continue
      let counts: Record<string, number> = {}
      const outcome = await moveHead(client, list, from, to, () => {
        const b = before as ListsSnapshot
        const change = diffListEntries(entriesOf(b, list), entriesOf(after, list))
        const touched = touchedParties(change, { before: b.index.entries, after: after.index.entries })
        counts = {
          added: change.added.length,
          changed: change.changed.length,
          removed: change.removed.length,
          partyEntries: touched.before.length + touched.after.length,
        }
        return { ...touched, versions: Object.fromEntries(after.versionOf) }
      })
      if (outcome === 'recorded')
        logger.info({ list, from, to, ...counts }, 'list change recorded for the watches')
      if (outcome === 'recorded') record.recorded.push(list)
      if (outcome === 'whole') record.rescreenedWhole.push(list)
      if (outcome === 'refused') record.refused.push(list)
      if (outcome === 'refused')
        logger.warn(
          { list, version: to },
          'list change not recorded for the watches: this replica holds a version the watches have moved past',
        )
      if (outcome === 'whole')
        logger.warn(
          { list, from, to },
          'the watches were not at this list version: every subject watching the list is screened again',
        )
    }
    return record
  } finally {
    client.release()
  }
}

type Outcome = 'recorded' | 'moved' | 'none' | 'whole' | 'refused'

/** One list's step, in one transaction under `HEADS_LOCK` (see `recordListRefresh`). */
async function moveHead(
  client: PoolClient,
  list: string,
  from: string | undefined,
  to: string,
  diff: () => RecordedChange,
): Promise<Outcome> {
  await client.query('BEGIN')
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [HEADS_LOCK])
    const { rows } = await client.query<{ version: string; generation: string }>(
      'SELECT version, generation::text FROM watch_list_heads WHERE list = $1',
      [list],
    )
    const head = rows[0]
    let outcome: Outcome
    if (head?.version === to) outcome = 'none'
    else if (from !== undefined && (!head || head.version === from)) {
      // The generation keeps a list that goes back to an earlier content (v1 → v2 → v1 → v2) one key per step.
      const key = `${list}#${head?.generation ?? 0}:${from}->${to}`
      // A change of what decides no match (remarks) touches no party: the head moves, nothing to re-screen.
      outcome = (await recordListChange(client, key, diff())) ? 'recorded' : 'moved'
    } else if (!head) outcome = 'none'
    else if (await wasHead(client, list, to)) outcome = 'refused'
    else {
      await client.query(
        `UPDATE watch_subjects s SET revision = s.revision + 1 FROM watches w
          WHERE w.watch_id = s.watch_id
            AND (w.lists IS NULL OR EXISTS (SELECT 1 FROM unnest(w.lists) l WHERE split_part(l, '/', 1) = $1))`,
        [list],
      )
      outcome = 'whole'
    }
    // No head yet: this replica's lists are where the hits are (the screener screened them on these).
    if (outcome === 'recorded' || outcome === 'moved' || outcome === 'whole' || !head) {
      await client.query(
        `INSERT INTO watch_list_heads (list, version) VALUES ($1, $2)
         ON CONFLICT (list) DO UPDATE SET version = $2, generation = watch_list_heads.generation + 1,
           updated_at = now()`,
        [list, to],
      )
      // A list gone is no version a replica can be behind at.
      if (to !== '')
        await client.query(
          'INSERT INTO watch_list_versions (list, version) VALUES ($1, $2) ON CONFLICT DO NOTHING',
          [list, to],
        )
    }
    await client.query('COMMIT')
    return outcome
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  }
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

async function wasHead(client: PoolClient, list: string, version: string): Promise<boolean> {
  const { rows } = await client.query('SELECT 1 FROM watch_list_versions WHERE list = $1 AND version = $2', [
    list,
    version,
  ])
  return rows.length > 0
}
