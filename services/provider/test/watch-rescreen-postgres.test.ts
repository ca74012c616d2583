import { createLogger } from '@pf/service-kit'
import { createCleanup } from '@pf/testkit'
import { startPostgres, type PostgresHandle } from '@pf/testkit/postgres'
import { Pool, type PoolClient } from 'pg'
import type { SanctionEntry } from '../src/datasets/records'
import { migrateWatches } from '../src/watches/migrate-watches'
import { WATCH_MIGRATIONS } from '../src/watches/watch-migrations'
import { diffListEntries } from '../src/watches/rescreen/list-change'
import { loadWatchedSubjects } from '../src/watches/rescreen/load-watched-subjects'
import { sanctionsList } from '../src/lists/sanctions-list'
import { SanctionsLists, type ListsSnapshot } from '../src/lists/sanctions-lists'
import { recordListChange } from '../src/watches/rescreen/record-list-change'
import { recordListRefresh } from '../src/watches/rescreen/record-list-refresh'
import { createListRescreener } from '../src/watches/rescreen/create-list-rescreener'
import { touchedParties } from '../src/watches/rescreen/rescreen-change'
import { rescreenListChanges } from '../src/watches/rescreen/rescreen-list-changes'
import type { SubjectHit } from '../src/watches/rescreen/subject-hit'
import type { SubjectHitsSink } from '../src/watches/rescreen/subject-hits-sink'
import type { WatchedSubject } from '../src/watches/rescreen/watched-subject'
import { eventually } from './support-eventually'
import { editedLists, fullRescreen, rescreenLists, watchedSubjects } from './support-watch-rescreen'

const cleanup = createCleanup()
let postgres: PostgresHandle
let lists: SanctionEntry[]
let subjects: WatchedSubject[]

/** A provider replica: its own pool, named so the test can end its connections as a killed process's end. */
function replica(name: string): Pool {
  const pool = new Pool({ connectionString: postgres.url, max: 3, application_name: name })
  // A killed replica's connections end under its idle clients too.
  pool.on('error', () => undefined)
  return cleanup.add(pool, (p) => p.end())
}

/**
 * The watch API's `applySubjectHits` stand-in: replaces the subject's hits and logs each application (a
 * subject applied twice for one change would show twice).
 */
const recordingSink = (beforeApply: () => Promise<void> = async () => {}): SubjectHitsSink => ({
  async apply(client: PoolClient, watchId: string, subjectId: string, hits: readonly SubjectHit[]) {
    await beforeApply()
    await client.query('DELETE FROM watch_hits WHERE watch_id = $1 AND subject_id = $2', [watchId, subjectId])
    for (const hit of hits)
      await client.query(
        `INSERT INTO watch_hits (watch_id, subject_id, hit_key, entry_hash, score, hit) VALUES ($1, $2, $3, $4, $5, $6)`,
        [watchId, subjectId, hit.hitKey, hit.entryHash, hit.score, JSON.stringify(hit.hit)],
      )
    await client.query('INSERT INTO applied (watch_id, subject_id) VALUES ($1, $2)', [watchId, subjectId])
  },
})

async function storedHits(pool: Pool): Promise<Map<string, string[]>> {
  const { rows } = await pool.query<{ id: string; hits: string[] }>(
    `SELECT watch_id || '/' || subject_id AS id, array_agg(hit_key || ' ' || entry_hash || ' ' || score ORDER BY hit_key) AS hits
       FROM watch_hits GROUP BY 1`,
  )
  return new Map(rows.map((row) => [row.id, row.hits]))
}

const asStored = (hits: Map<string, SubjectHit[]>) =>
  new Map(
    [...hits]
      .filter(([, found]) => found.length > 0)
      .map(([id, found]) => [
        id,
        found.map((hit) => `${hit.hitKey} ${hit.entryHash} ${hit.score}`).sort((x, y) => (x < y ? -1 : 1)),
      ]),
  )

beforeAll(async () => {
  postgres = cleanup.add(await startPostgres(), (p) => p.destroy())
  lists = await rescreenLists({ ofac: 100, un: 100 })
  subjects = watchedSubjects(600, lists, { seed: 3, fromLists: 3 })
  const admin = replica('setup')
  await migrateWatches(admin, WATCH_MIGRATIONS)
  await admin.query('CREATE TABLE applied (watch_id text, subject_id text)')
})
afterAll(() => cleanup.run())

describe('re-screening a list change across replicas in PostgreSQL', () => {
  it('is done once, by one replica, on subjects written through another, and finished by a second when the first is killed', async () => {
    const [a, b] = [replica('replica-a'), replica('replica-b')]
    // Subjects and their hits on the lists before, written through replica B.
    for (const watchId of new Set(subjects.map((s) => s.watchId))) {
      const watch = subjects.find((s) => s.watchId === watchId)!
      await b.query(
        `INSERT INTO watches (watch_id, alert_url, alert_token, threshold, lists, entity_type) VALUES ($1, 'http://a', 't', $2, $3, $4)`,
        [watchId, watch.threshold, watch.lists ?? null, watch.entityType ?? null],
      )
    }
    for (const s of subjects)
      await b.query(
        `INSERT INTO watch_subjects (watch_id, subject_id, name, birth_year) VALUES ($1, $2, $3, $4)`,
        [s.watchId, s.subjectId, s.name, s.birthYear ?? null],
      )
    const sink = recordingSink()
    for (const [id, hits] of fullRescreen(lists, subjects)) {
      const [watchId, subjectId] = id.split('/') as [string, string]
      const client = await b.connect()
      await sink.apply(client, watchId, subjectId, hits).finally(() => client.release())
    }
    await b.query('DELETE FROM applied')

    const after = editedLists(lists, subjects, 50, 21)
    const touched = touchedParties(diffListEntries(lists, after), { before: lists, after })
    // Both replicas saw the refresh: one record.
    const recorded = await Promise.all([
      recordListChange(a, 'lists-1', touched),
      recordListChange(b, 'lists-1', touched),
    ])
    expect(recorded.filter(Boolean)).toHaveLength(1)

    // Replica A takes the change and is killed in its second batch; B, asked meanwhile, leaves it to A.
    let calls = 0
    let killed!: () => void
    const stopped = new Promise<void>((resolve) => (killed = resolve))
    let reachedKill!: () => void
    const atKill = new Promise<void>((resolve) => (reachedKill = resolve))
    const dying = recordingSink(async () => {
      calls += 1
      if (calls === 8) {
        reachedKill()
        await stopped
      }
    })
    const runA = rescreenListChanges({
      pool: a,
      sink: dying,
      loadSubjects: loadWatchedSubjects,
      batchSize: 5,
    })
    await atKill
    expect(await rescreenListChanges({ pool: b, sink, loadSubjects: loadWatchedSubjects })).toBeNull()
    await b.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'replica-a'`,
    )
    killed()
    await expect(runA).rejects.toThrow()
    const doneByA = Number((await b.query<{ n: string }>('SELECT count(*) AS n FROM applied')).rows[0]!.n)
    expect(doneByA).toBe(5)

    const doneByB = await rescreenListChanges({ pool: b, sink, loadSubjects: loadWatchedSubjects })
    expect(doneByB?.changes).toBe(1)
    // Every subject the change concerns once, across both replicas.
    const { rows } = await b.query<{ n: string; distinct: string }>(
      `SELECT count(*) AS n, count(DISTINCT (watch_id, subject_id)) AS distinct FROM applied`,
    )
    expect(rows[0]!.n).toBe(rows[0]!.distinct)
    expect(Number(rows[0]!.n)).toBe(doneByA + doneByB!.subjects)
    expect(doneByB!.subjects).toBeGreaterThan(0)
    // And the hits are a full re-screen's on the lists after.
    expect(await storedHits(b)).toEqual(asStored(fullRescreen(after, subjects)))
    // Nothing is left to do.
    expect(await rescreenListChanges({ pool: b, sink, loadSubjects: loadWatchedSubjects })).toEqual({
      changes: 0,
      subjects: 0,
    })
  })
})

/** One list `heads` at the version named `version` (its sha256), holding `names`. */
function snapshot(version: string, names: string[]): ListsSnapshot {
  return headsLists(version, names).current()
}

function headsLists(version: string, names: string[]): SanctionsLists {
  return listsOf([['heads', version, names]])
}

/** Lists of `[name, version, names]`, each entry `H<n>` of its list. */
function listsOf(specs: [string, string, string[]][]): SanctionsLists {
  const lists = specs.map(([name, version, names]) =>
    sanctionsList(
      { name, format: 'jsonl', source: 'test', sha256: version },
      names.map((listed, i) => ({
        id: `H${i}`,
        name: listed,
        type: 'individual' as const,
        programs: ['TEST'],
        aliases: [],
        countries: [],
        remarks: null,
        source: 'test',
      })),
    ),
  )
  return SanctionsLists.of(lists, createLogger({ name: 'test', level: 'silent' }))
}

describe('recording a list refresh for the watches (replicas refreshing at different times)', () => {
  it("records a change only from the version the watches are at: once across replicas, never backwards, and a gap screens the list's subjects whole", async () => {
    const pool = replica('heads')
    const silent = createLogger({ name: 'test', level: 'silent' })
    const changes = async () =>
      (await pool.query(`SELECT count(*)::int AS n FROM watch_list_changes WHERE change_key <> 'lists-1'`))
        .rows[0].n as number
    const [v1, v2, v3, v4] = [
      snapshot('v1', ['Ilse Marrow']),
      snapshot('v2', ['Ilse Marrow', 'Gunnar Thackeray']),
      snapshot('v3', ['Gunnar Thackeray']),
      snapshot('v4', ['Gunnar Thackeray', 'Odile Ferncastle']),
    ]
    // A start with no head yet: the lists loaded are where the hits are.
    expect(await recordListRefresh(pool, undefined, v1, silent)).toEqual({
      recorded: [],
      rescreenedWhole: [],
      refused: [],
    })
    // Replica A refreshes v1 → v2; replica B the same refresh later: one change.
    expect((await recordListRefresh(pool, v1, v2, silent)).recorded).toEqual(['heads'])
    expect(await recordListRefresh(pool, v1, v2, silent)).toEqual({
      recorded: [],
      rescreenedWhole: [],
      refused: [],
    })
    expect((await recordListRefresh(pool, v2, v3, silent)).recorded).toEqual(['heads'])
    expect(await changes()).toBe(2)
    // A replica still on v1 that now reads v2 is behind: applying it would take the hits back.
    expect((await recordListRefresh(pool, v1, v2, silent)).refused).toEqual(['heads'])
    // The watches at v3, a replica going v2 → v4 skipped nothing it could diff: the list's subjects screened whole.
    const revisions = async () =>
      (await pool.query('SELECT sum(revision)::int AS n FROM watch_subjects')).rows[0].n as number
    const revisionsBefore = await revisions()
    expect((await recordListRefresh(pool, v2, v4, silent)).rescreenedWhole).toEqual(['heads'])
    expect(await revisions()).toBeGreaterThan(revisionsBefore)
    expect(await changes()).toBe(2)
    // From v4 the changes are recorded again, v4 → v1 included (a version seen before, reached from the head).
    expect((await recordListRefresh(pool, v4, v1, silent)).recorded).toEqual(['heads'])
    expect(await changes()).toBe(3)
    // A start on v2 (a head before): the list went back while no replica ran, so its subjects are screened whole.
    expect((await recordListRefresh(pool, undefined, v2, silent)).rescreenedWhole).toEqual(['heads'])
    expect((await recordListRefresh(pool, v2, v1, silent)).recorded).toEqual(['heads'])
    expect(await changes()).toBe(4)
    // Two lists changed by one refresh: one change, so the re-screen reads the subjects once.
    const twoBefore = listsOf([
      ['heads', 'v1', ['Ilse Marrow']],
      ['other', 'o1', []],
      ['third', 't1', ['Ilse Marrow']],
    ])
    const twoAfter = listsOf([
      ['heads', 'v1', ['Ilse Marrow']],
      ['other', 'o2', ['Bertil Oxhaven']],
      ['third', 't2', []],
    ])
    const both = await recordListRefresh(pool, twoBefore.current(), twoAfter.current(), silent)
    expect(both.recorded.sort()).toEqual(['other', 'third'])
    expect(await changes()).toBe(5)
  })
  it('is re-screened by the provider re-screener at its interval, unwoken (a change a killed replica left): applySubjectHits writes a `new` alert naming the list version', async () => {
    const pool = replica('rescreener')
    // The changes the test before recorded are not this test's work.
    await pool.query(`UPDATE watch_list_changes SET status = 'done' WHERE status = 'pending'`)
    await pool.query(
      `INSERT INTO watches (watch_id, alert_url, alert_token) VALUES ('timer', 'http://a', 't')`,
    )
    await pool.query(
      `INSERT INTO watch_subjects (watch_id, subject_id, name, revision, screened_revision) VALUES ('timer', 's1', 'Odalys Brightwater', 1, 1)`,
    )
    const lists = headsLists('v5', ['Ilse Marrow', 'Odalys Brightwater'])
    const silent = createLogger({ name: 'test', level: 'silent' })
    const recorded = await recordListRefresh(pool, snapshot('v1', ['Ilse Marrow']), lists.current(), silent)
    expect(recorded.recorded).toEqual(['heads'])
    let woken = 0
    const rescreener = createListRescreener({
      pool,
      engine: { lists },
      logger: silent,
      intervalMs: 20,
      alertsWritten: () => (woken += 1),
    })
    cleanup.add(rescreener, (r) => r.stop())
    rescreener.start()
    await eventually(async () => {
      // The wake comes after the change's commit (the drain returns first): a poll may see `done` before it.
      if (woken === 0) return false
      const { rows } = await pool.query(
        `SELECT count(*)::int AS n FROM watch_list_changes WHERE status = 'pending'`,
      )
      return rows[0].n === 0
    })
    const { rows } = await pool.query<{
      kind: string
      hit: { lists: unknown[]; explanation: { algorithm: string } }
    }>(`SELECT kind, hit FROM watch_alerts WHERE watch_id = 'timer'`)
    expect(rows.map(({ kind }) => kind)).toEqual(['new'])
    expect(rows[0]!.hit.lists).toEqual([{ name: 'heads', id: 'H1', version: 'v5' }])
    expect(rows[0]!.hit.explanation.algorithm).toEqual(expect.any(String))
    expect(woken).toBeGreaterThan(0)
  })
})
