import { Pool } from 'pg'
import { createCleanup } from '@pf/testkit'
import { startPostgres } from '@pf/testkit/postgres'
import { SanctionsLists } from '../src/lists/sanctions-lists'
import { startStore, type StartedProvider } from './support-http'
import { listOptions } from './support-lists'
import { api, listFile, screeningDone, startWatchProvider } from './support-watches'

const cleanup = createCleanup(afterAll)
let db: Pool
let lists: SanctionsLists
let replicaA: StartedProvider
let replicaB: StartedProvider
const list = listFile('watch-list')
const entries = {
  bout: { id: 'E1', name: 'Viktor Bout', type: 'individual', programs: ['TEST'], remarks: 'first' },
  olga: { id: 'E2', name: 'Olga Smirnova', type: 'individual', programs: ['TEST'] },
  acme: { id: 'E3', name: 'Acme Shipping Holdings', type: 'entity', programs: ['TEST'] },
}

beforeAll(async () => {
  const postgres = cleanup.add(await startPostgres(), (p) => p.destroy())
  const store = cleanup.add(await startStore(), (s) => s.stop())
  list.write(Object.values(entries))
  lists = await SanctionsLists.load([list.path], listOptions)
  // Two replicas on one database: each runs its screener.
  replicaA = cleanup.add(await startWatchProvider(store, postgres.url, { lists }), (p) => p.stop())
  replicaB = cleanup.add(await startWatchProvider(store, postgres.url, { lists }), (p) => p.stop())
  db = cleanup.add(new Pool({ connectionString: postgres.url, max: 2 }), (p) => p.end())
})

const watch = { alertUrl: 'https://alerts.example/pf', alertToken: 'alert-secret' }
interface AlertRow {
  subject_id: string
  kind: string
  hit: {
    hitKey: string
    entryHash: string
    score: number
    lists: { name: string; id: string; version: string }[]
  }
}
const alerts = async (watchId: string) =>
  (
    await db.query<AlertRow>(
      'SELECT subject_id, kind, hit FROM watch_alerts WHERE watch_id = $1 ORDER BY ordinal',
      [watchId],
    )
  ).rows

describe('screening new and changed subjects', () => {
  it('screens new subjects in the background and writes a `new` alert per hit, with list versions', async () => {
    await api(replicaA.url, 'PUT', '/watches/scr', watch)
    const res = await api(replicaA.url, 'POST', '/watches/scr/subjects', [
      { subjectId: 's1', name: 'Viktor Bout' },
      { subjectId: 's2', name: 'Peter Nobody Else' },
      { subjectId: 's3', name: 'Olga Smirnova' },
    ])
    expect(res.body.accepted).toBe(3)
    await screeningDone(db)
    const rows = await alerts('scr')
    expect(rows.map((r) => [r.subject_id, r.kind, r.hit.hitKey])).toEqual([
      ['s1', 'new', 'watch-list:E1'],
      ['s3', 'new', 'watch-list:E2'],
    ])
    const version = lists.current().versionOf.get('watch-list')
    expect(rows[0]?.hit.lists).toEqual([{ name: 'watch-list', id: 'E1', version }])
    expect(rows[0]?.hit).toMatchObject({ score: 100, explanation: { algorithm: expect.any(String) } })
    const shown = await api(replicaB.url, 'GET', '/watches/scr/subjects/s1')
    expect(shown.body).toMatchObject({ subjectId: 's1', screened: true, hits: [{ id: 'E1', score: 100 }] })
    const metrics = await (await fetch(`${replicaA.url}/metrics`)).text()
    expect(metrics).toMatch(/^pf_provider_watch_screening_backlog 0$/m)
  })

  it("screens with the watch's entityType and threshold; changing them re-screens and alerts the difference", async () => {
    await api(replicaA.url, 'PUT', '/watches/orgs', { ...watch, entityType: 'organization' })
    await api(replicaA.url, 'POST', '/watches/orgs/subjects', [
      { subjectId: 'o1', name: 'Viktor Bout' },
      { subjectId: 'o2', name: 'Acme Shipping Holdings' },
    ])
    await screeningDone(db)
    expect((await alerts('orgs')).map((r) => [r.subject_id, r.kind])).toEqual([['o2', 'new']])
    await api(replicaA.url, 'PUT', '/watches/orgs', watch)
    await screeningDone(db)
    expect((await alerts('orgs')).map((r) => [r.subject_id, r.kind])).toEqual([
      ['o2', 'new'],
      ['o1', 'new'],
    ])
    // The same choices again change nothing: no re-screening, no alert.
    await api(replicaA.url, 'PUT', '/watches/orgs', { ...watch, alertToken: 'rotated' })
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM watch_subjects WHERE watch_id = 'orgs' AND screened_revision = revision`,
    )
    expect(rows[0]).toEqual({ n: 2 })
  })
})

describe('decisions', () => {
  const decide = (decision: string, entryId = 'E2') =>
    api(replicaA.url, 'POST', '/watches/dec/decisions', {
      subjectId: 'd1',
      list: 'watch-list',
      entryId,
      decision,
    })
  const rename = async (name: string) => {
    await api(replicaA.url, 'POST', '/watches/dec/subjects', [{ subjectId: 'd1', name }])
    await screeningDone(db)
  }

  it('a false_positive silences the hit until its entry hash changes, then it alerts again as `changed`', async () => {
    await api(replicaA.url, 'PUT', '/watches/dec', watch)
    await api(replicaA.url, 'POST', '/watches/dec/subjects', [
      { subjectId: 'd1', name: 'Olga Smirnova' },
      { subjectId: 'd2', name: 'Viktor Bout' },
    ])
    await screeningDone(db)
    expect((await alerts('dec')).map((r) => [r.subject_id, r.kind])).toEqual([
      ['d1', 'new'],
      ['d2', 'new'],
    ])
    const decided = await decide('false_positive')
    expect(decided.status).toBe(201)
    expect(decided.body.entryHash).toBe((await alerts('dec'))[0]?.hit.entryHash)
    const shown = await api(replicaA.url, 'GET', '/watches/dec/subjects/d1')
    expect(shown.body.hits[0].decisions).toMatchObject([{ decision: 'false_positive' }])

    // The hit goes and comes back: silenced both ways.
    await rename('Peter Nobody Else')
    await rename('Olga Smirnova')
    expect(await alerts('dec')).toHaveLength(2)

    // A remark is not what decides a match (no alert for d2); a new alias is (d1 alerts again).
    list.write([
      { ...entries.bout, remarks: 'reworded' },
      { ...entries.olga, aliases: ['Olga Smirnova-Petrova'] },
      entries.acme,
    ])
    expect((await lists.refresh()).ok).toBe(true)
    await api(replicaA.url, 'PUT', '/watches/dec', { ...watch, threshold: 84 })
    await screeningDone(db)
    const after = await alerts('dec')
    expect(after.map((r) => [r.subject_id, r.kind])).toEqual([
      ['d1', 'new'],
      ['d2', 'new'],
      ['d1', 'changed'],
    ])
    expect(after[2]?.hit.entryHash).not.toBe(decided.body.entryHash)
    expect(after[2]?.hit.lists[0]?.version).toBe(lists.current().versionOf.get('watch-list'))

    // The newest decision is in force: `match` lifts the silence, so a removal alerts.
    await decide('match')
    await rename('Peter Nobody Else')
    expect((await alerts('dec')).map((r) => r.kind)).toEqual(['new', 'new', 'changed', 'removed'])
  })
})

describe('replicas', () => {
  it('two providers share the backlog: every hit alerted once', async () => {
    await api(replicaA.url, 'PUT', '/watches/rep', watch)
    const subjects = Array.from({ length: 1200 }, (_, i) => ({
      subjectId: `r${String(i).padStart(4, '0')}`,
      name: i % 10 === 0 ? 'Viktor Bout' : `Customer Number ${i}`,
    }))
    // Half through each replica, so both screeners are woken with work.
    await Promise.all([
      api(replicaA.url, 'POST', '/watches/rep/subjects', subjects.slice(0, 600)),
      api(replicaB.url, 'POST', '/watches/rep/subjects', subjects.slice(600)),
    ])
    await screeningDone(db)
    const rows = await alerts('rep')
    expect(rows).toHaveLength(120)
    expect(new Set(rows.map((r) => r.subject_id)).size).toBe(120)
    expect(rows.every((r) => r.kind === 'new')).toBe(true)
    const hits = await db.query(`SELECT count(*)::int AS n FROM watch_hits WHERE watch_id = 'rep'`)
    expect(hits.rows[0]).toEqual({ n: 120 })
  })
})
