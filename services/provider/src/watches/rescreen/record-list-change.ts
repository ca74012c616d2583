import type { Pool } from 'pg'
import type { TouchedParties } from './rescreen-change'

/**
 * Records a list change to re-screen (`rescreenListChanges` does it), once whichever replicas report it:
 * `changeKey` names the change (the versions of the lists before and after). A change that touched no party
 * is not recorded. Returns its `change_id`, or null when it was already recorded or touched nothing.
 */
export async function recordListChange(
  pool: Pool,
  changeKey: string,
  touched: TouchedParties,
): Promise<string | null> {
  if (touched.before.length === 0 && touched.after.length === 0) return null
  const { rows } = await pool.query<{ change_id: string }>(
    `INSERT INTO watch_list_changes (change_key, touched) VALUES ($1, $2)
     ON CONFLICT (change_key) DO NOTHING RETURNING change_id`,
    [changeKey, JSON.stringify(touched)],
  )
  return rows[0]?.change_id ?? null
}
