import type { ClientBase, Pool } from 'pg'
import type { TouchedParties } from './rescreen-change'

/**
 * What `watch_list_changes.touched` keeps of a change: the parties it touched and the version of every list and
 * sub-list after it (as `/api/lists` shows them), which the hits it writes name, as screening answers do.
 */
export interface RecordedChange extends TouchedParties {
  versions?: Record<string, string>
}

/**
 * Records a list change to re-screen (`rescreenListChanges` does it), once whichever replicas report it:
 * `changeKey` names the change (the versions of the lists before and after). A change that touched no party
 * is not recorded. Returns its `change_id`, or null when it was already recorded or touched nothing. `db`: a
 * pool, or a client inside the caller's transaction.
 */
export async function recordListChange(
  db: Pool | ClientBase,
  changeKey: string,
  touched: RecordedChange,
): Promise<string | null> {
  if (touched.before.length === 0 && touched.after.length === 0) return null
  const { rows } = await (db as Pool).query<{ change_id: string }>(
    `INSERT INTO watch_list_changes (change_key, touched) VALUES ($1, $2)
     ON CONFLICT (change_key) DO NOTHING RETURNING change_id`,
    [changeKey, JSON.stringify(touched)],
  )
  return rows[0]?.change_id ?? null
}
