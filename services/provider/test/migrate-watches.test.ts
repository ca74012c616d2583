import { createCleanup } from '@pf/testkit'
import { startPostgres, type PostgresHandle } from '@pf/testkit/postgres'
import { Pool } from 'pg'
import { migrateCompanies } from '../src/companies/postgres/migrate-companies'
import { migrateWatches } from '../src/watches/migrate-watches'

const cleanup = createCleanup()
let postgres: PostgresHandle
let pool: Pool

beforeAll(async () => {
  postgres = cleanup.add(await startPostgres(), (p) => p.destroy())
  pool = cleanup.add(new Pool({ connectionString: postgres.url, max: 4 }), (p) => p.end())
  // pool.end() resolves before its idle sockets close: the cluster's shutdown may reach one, which is no failure.
  pool.on('error', () => undefined)
})
afterAll(() => cleanup.run())

describe('the watches schema', () => {
  it('is applied once, whichever replica starts first, beside the companies schema', async () => {
    const runs = await Promise.all([migrateWatches(pool), migrateWatches(pool), migrateCompanies(pool)])
    expect(runs[0].concat(runs[1]).sort((a, b) => a - b)).toEqual([1, 20, 30, 31])
    expect(runs[2]).toEqual([1, 2])
    expect(await migrateWatches(pool)).toEqual([])
  })

  it('removes a watch with its subjects, hits, decisions and alerts', async () => {
    await pool.query(`INSERT INTO watches (watch_id, alert_url, alert_token) VALUES ('w1', 'http://a', 't')`)
    await pool.query(`INSERT INTO watch_subjects (watch_id, subject_id, name) VALUES ('w1', 's1', 'Ann Lee')`)
    await pool.query(
      `INSERT INTO watch_hits (watch_id, subject_id, hit_key, entry_hash, score, hit) VALUES ('w1', 's1', 'l:1', 'h', 90, '{}')`,
    )
    await pool.query(
      `INSERT INTO watch_decisions (watch_id, subject_id, list, entry_id, decision) VALUES ('w1', 's1', 'l', '1', 'match')`,
    )
    await pool.query(
      `INSERT INTO watch_alerts (alert_id, watch_id, subject_id, kind, hit) VALUES (gen_random_uuid(), 'w1', 's1', 'new', '{}')`,
    )
    await pool.query(`DELETE FROM watches WHERE watch_id = 'w1'`)
    for (const table of ['watch_subjects', 'watch_hits', 'watch_decisions', 'watch_alerts']) {
      const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)
      expect([table, rows[0]?.n]).toEqual([table, '0'])
    }
  })
})
