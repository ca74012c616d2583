import type { ClientBase, Pool } from 'pg'
import { COUNTRY_WORDS } from '../postgres/company-lexemes'

/** The same indexes as `companies`' (so ATTACH adopts them). */
const INDEXES = [
  `USING gin (name_words, ${COUNTRY_WORDS})`,
  '(country, ordinal)',
  '(ordinal)',
  'USING gin (industry_words)',
]

/**
 * Builds an import table's indexes once, after the load (not row by row), two at a time on connections of
 * their own: CREATE INDEX takes SHARE on the table, which does not conflict with itself, and PostgreSQL builds
 * a GIN index on one core only (parallel GIN builds came in version 18), so two builds use two cores. The name
 * index, the longest, goes first. Then ANALYZE, on `client`. `signal` cancels the builds under way
 * (`pg_cancel_backend`, sent on `client`, idle meanwhile): an interrupted import does not wait for them.
 */
export async function indexCompanyImport(
  pool: Pool,
  client: ClientBase,
  table: string,
  signal?: AbortSignal,
): Promise<void> {
  const queue = [...INDEXES]
  const building: number[] = []
  const cancel = () =>
    void client
      .query('SELECT pg_cancel_backend(pid) FROM unnest($1::int[]) AS pid', [building])
      .catch(() => {})
  const worker = async () => {
    const builder = await pool.connect()
    try {
      const { rows } = await builder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
      building.push((rows[0] as { pid: number }).pid)
      await builder.query(`SET maintenance_work_mem = '256MB'`)
      for (let index = queue.shift(); index && !signal?.aborted; index = queue.shift())
        await builder.query(`CREATE INDEX ON ${table} ${index}`)
    } finally {
      builder.release()
    }
  }
  signal?.addEventListener('abort', cancel)
  try {
    // Both settled before anything else runs on the table: a failed build must not leave the other holding it.
    const built = await Promise.allSettled([worker(), worker()])
    const failed = built.find((one): one is PromiseRejectedResult => one.status === 'rejected')
    signal?.throwIfAborted()
    if (failed) throw failed.reason
  } finally {
    signal?.removeEventListener('abort', cancel)
  }
  await client.query(`ANALYZE ${table}`)
}
