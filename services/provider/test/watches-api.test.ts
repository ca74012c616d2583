import { request } from 'node:http'
import { Pool } from 'pg'
import { createCleanup } from '@pf/testkit'
import { startPostgres } from '@pf/testkit/postgres'
import { SanctionsLists } from '../src/lists/sanctions-lists'
import { SUBJECT_BATCH } from '../src/watches/ingest-subjects'
import { API_KEY, startProvider, startStore, type StartedProvider } from './support-http'
import { listOptions } from './support-lists'
import { api, listFile, startWatchProvider } from './support-watches'

const cleanup = createCleanup(afterAll)
let db: Pool
let provider: StartedProvider
let tight: StartedProvider
let without: StartedProvider

beforeAll(async () => {
  const postgres = cleanup.add(await startPostgres(), (p) => p.destroy())
  const store = cleanup.add(await startStore(), (s) => s.stop())
  const list = listFile('watch-test')
  list.write([{ id: 'E1', name: 'Viktor Bout', type: 'individual', programs: ['TEST'] }])
  const lists = await SanctionsLists.load([list.path], listOptions)
  provider = cleanup.add(await startWatchProvider(store, postgres.url, { lists }), (p) => p.stop())
  tight = cleanup.add(
    await startWatchProvider(store, postgres.url, { lists, overrides: { subjectsMaxBytes: 4096 } }),
    (p) => p.stop(),
  )
  without = cleanup.add(await startProvider(store, { lists }), (p) => p.stop())
  db = cleanup.add(new Pool({ connectionString: postgres.url, max: 2 }), (p) => p.end())
})

const watch = { alertUrl: 'https://alerts.example/pf', alertToken: 'alert-secret' }
const jsonl = (subjects: unknown[]) => subjects.map((s) => JSON.stringify(s)).join('\n') + '\n'
const subjectsOf = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({ subjectId: `s${from + i}`, name: `Customer Number ${from + i}` }))

describe('watches without a database', () => {
  it.each([
    ['GET', '/watches'],
    ['PUT', '/watches/w1'],
    ['POST', '/watches/w1/subjects'],
    ['GET', '/watches/w1/subjects/s1'],
  ])('%s %s answers 501 naming the setting', async (method, path) => {
    const res = await api(without.url, method, path, method === 'GET' ? undefined : watch)
    expect(res.status).toBe(501)
    expect(res.body.error).toContain('WATCHES_DATABASE_URL')
  })
})

describe('watch CRUD', () => {
  it('creates (201), replaces (200), shows without the token, lists and deletes a watch', async () => {
    expect((await api(provider.url, 'PUT', '/watches/crud-1', watch)).status).toBe(201)
    const replaced = await api(provider.url, 'PUT', '/watches/crud-1', { ...watch, threshold: 90 })
    expect(replaced).toMatchObject({ status: 200, body: { watchId: 'crud-1', threshold: 90 } })
    const shown = await api(provider.url, 'GET', '/watches/crud-1')
    expect(shown.body).toMatchObject({ watchId: 'crud-1', alertUrl: watch.alertUrl, subjects: 0 })
    expect(JSON.stringify(shown.body)).not.toContain('alert-secret')
    await api(provider.url, 'PUT', '/watches/crud-2', watch)
    const first = await api(provider.url, 'GET', '/watches?limit=1')
    expect(first.body).toMatchObject({ watches: [{ watchId: 'crud-1' }], nextCursor: 'crud-1' })
    const second = await api(provider.url, 'GET', `/watches?limit=1&after=${first.body.nextCursor}`)
    expect(second.body.watches[0].watchId).toBe('crud-2')
    expect(JSON.stringify(first.body)).not.toContain('alert-secret')
    expect((await api(provider.url, 'DELETE', '/watches/crud-2')).status).toBe(204)
    expect((await api(provider.url, 'GET', '/watches/crud-2')).status).toBe(404)
    expect((await api(provider.url, 'DELETE', '/watches/crud-2')).status).toBe(404)
  })

  it.each([
    ['no alertToken', { alertUrl: watch.alertUrl }, 'alertToken'],
    ['an unknown field', { ...watch, extra: 1 }, 'additional properties'],
    ['a threshold past 100', { ...watch, threshold: 101 }, 'threshold'],
    ['an ftp alertUrl', { ...watch, alertUrl: 'ftp://alerts.example/x' }, 'alertUrl must be http or https'],
    ['credentials in alertUrl', { ...watch, alertUrl: 'https://u:p@alerts.example/' }, 'credentials'],
    ['a list not in use', { ...watch, lists: ['nope'] }, 'lists names no list in use'],
    ['an unknown entityType', { ...watch, entityType: 'ship' }, 'entityType'],
  ])('refuses a watch with %s: 400 {error}', async (_what, body, says) => {
    const res = await api(provider.url, 'PUT', '/watches/bad', body)
    expect(res.status).toBe(400)
    expect(res.body.error).toContain(says)
  })

  it('refuses a watchId past 128 characters, bad page limits, and a wrong API key', async () => {
    expect((await api(provider.url, 'PUT', `/watches/${'w'.repeat(129)}`, watch)).status).toBe(400)
    for (const limit of ['0', '1001', 'x'])
      expect((await api(provider.url, 'GET', `/watches?limit=${limit}`)).status).toBe(400)
    expect((await api(provider.url, 'GET', '/watches?limit=1000')).status).toBe(200)
    const res = await fetch(`${provider.url}/api/watches`, { headers: { 'x-pf-api-key': 'wrong' } })
    expect(res.status).toBe(401)
  })

  it('deleting a watch removes its subjects, hits, decisions and alerts (cascade)', async () => {
    await api(provider.url, 'PUT', '/watches/gone', watch)
    await api(provider.url, 'POST', '/watches/gone/subjects', [{ subjectId: 'a', name: 'Viktor Bout' }])
    await api(provider.url, 'POST', '/watches/gone/decisions', {
      subjectId: 'a',
      list: 'watch-test',
      entryId: 'E1',
      decision: 'match',
    })
    expect((await api(provider.url, 'DELETE', '/watches/gone')).status).toBe(204)
    for (const table of ['watch_subjects', 'watch_hits', 'watch_decisions', 'watch_alerts']) {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE watch_id = 'gone'`)
      expect(rows[0]).toEqual({ n: 0 })
    }
  })

  it('serves the watch routes in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${provider.url}/openapi.json`)).json()) as {
      paths: Record<string, object>
    }
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/watches', '/api/watches/{watchId}', '/api/watches/{watchId}/subjects']),
    )
  })
})

describe('subjects: streamed JSON array and JSON Lines', () => {
  beforeAll(async () => {
    await api(provider.url, 'PUT', '/watches/ingest', watch)
  })

  it('upserts a JSON array, rejecting bad items by index', async () => {
    const body = [
      { subjectId: 'a1', name: 'Anna Example', country: 'DE', birthYear: 1980 },
      { subjectId: 'a2' },
      { subjectId: 'a3', name: 'x'.repeat(257) },
      'not a subject',
      { subjectId: 'a4', name: 'Bert Example', entityType: 'person' },
    ]
    const res = await api(provider.url, 'POST', '/watches/ingest/subjects', body)
    expect(res.status).toBe(200)
    expect(res.body.accepted).toBe(2)
    expect(res.body.rejectedCount).toBe(3)
    expect(res.body.rejected.map((r: { index: number }) => r.index)).toEqual([1, 2, 3])
    expect(res.body.rejected[1].error).toContain('name')
    const shown = await api(provider.url, 'GET', '/watches/ingest/subjects/a1')
    expect(shown.body).toMatchObject({
      subjectId: 'a1',
      name: 'Anna Example',
      country: 'DE',
      birthYear: 1980,
    })
  })

  it('upserts JSON Lines, a line that is no JSON rejected, blank lines skipped', async () => {
    const body = `${JSON.stringify({ subjectId: 'l1', name: 'Lina One' })}\n\n{oops\n${JSON.stringify({ subjectId: 'l2', name: 'Lina Two' })}`
    const res = await api(provider.url, 'POST', '/watches/ingest/subjects', body, {
      'content-type': 'application/x-ndjson',
    })
    expect(res.body).toEqual({
      accepted: 2,
      rejected: [{ index: 1, error: 'not valid JSON' }],
      rejectedCount: 1,
    })
  })

  it('names the first 100 rejects and counts them all', async () => {
    const body = Array.from({ length: 150 }, (_, i) => ({ subjectId: `r${i}` }))
    const res = await api(provider.url, 'POST', '/watches/ingest/subjects', body)
    expect(res.body.rejected).toHaveLength(100)
    expect(res.body.rejectedCount).toBe(150)
  })

  it('bumps the revision only when what decides a match changes', async () => {
    const revision = async () =>
      (await db.query(`SELECT revision FROM watch_subjects WHERE watch_id = 'ingest' AND subject_id = 'u1'`))
        .rows[0].revision as string
    await api(provider.url, 'POST', '/watches/ingest/subjects', [{ subjectId: 'u1', name: 'Una Same' }])
    const first = await revision()
    await api(provider.url, 'POST', '/watches/ingest/subjects', [{ subjectId: 'u1', name: 'Una Same' }])
    expect(await revision()).toBe(first)
    await api(provider.url, 'POST', '/watches/ingest/subjects', [
      { subjectId: 'u1', name: 'Una Same', birthYear: 1970 },
    ])
    expect(Number(await revision())).toBe(Number(first) + 1)
  })

  it('refuses what is no array (400), another Content-Type (415), an unknown watch (404)', async () => {
    const notArray = await api(provider.url, 'POST', '/watches/ingest/subjects', { subjectId: 'x' })
    expect(notArray).toMatchObject({ status: 400, body: { accepted: 0 } })
    expect(notArray.body.error).toContain('JSON array')
    const cut = await api(provider.url, 'POST', '/watches/ingest/subjects', '[{"subjectId":"c1","name":"C"}')
    expect(cut.status).toBe(400)
    const text = await api(provider.url, 'POST', '/watches/ingest/subjects', 'a', {
      'content-type': 'text/plain',
    })
    expect(text.status).toBe(415)
    expect((await api(provider.url, 'POST', '/watches/nope/subjects', [])).status).toBe(404)
  })

  it('answers 413 past its own body limit, keeping no partial batch', async () => {
    await api(tight.url, 'PUT', '/watches/tight', watch)
    const res = await api(tight.url, 'POST', '/watches/tight/subjects', jsonl(subjectsOf(200)), {
      'content-type': 'application/x-ndjson',
    })
    expect(res.status).toBe(413)
    expect(res.body).toMatchObject({ accepted: 0 })
    expect(res.body.error).toContain('4096 bytes')
  })

  it('takes more than the kit body limit in one streamed request', async () => {
    const subjects = subjectsOf(3000, 10_000)
    expect(JSON.stringify(subjects).length).toBeGreaterThan(64 * 1024)
    const res = await api(provider.url, 'POST', '/watches/ingest/subjects', subjects)
    expect(res.body).toEqual({ accepted: 3000, rejected: [], rejectedCount: 0 })
  })

  it('lists subjects with a cursor, and deletes one', async () => {
    const page = await api(provider.url, 'GET', '/watches/ingest/subjects?limit=2')
    expect(page.body.subjects).toHaveLength(2)
    const next = await api(
      provider.url,
      'GET',
      `/watches/ingest/subjects?limit=2&after=${page.body.nextCursor}`,
    )
    expect(next.body.subjects[0].subjectId > page.body.subjects[1].subjectId).toBe(true)
    expect((await api(provider.url, 'GET', '/watches/ingest/subjects?limit=1001')).status).toBe(400)
    expect((await api(provider.url, 'DELETE', '/watches/ingest/subjects/l2')).status).toBe(204)
    expect((await api(provider.url, 'GET', '/watches/ingest/subjects/l2')).status).toBe(404)
  })

  it('a broken stream keeps the batches committed before it broke; the retry is safe', async () => {
    await api(provider.url, 'PUT', '/watches/broken', watch)
    const count = async () =>
      (await db.query(`SELECT count(*)::int AS n FROM watch_subjects WHERE watch_id = 'broken'`)).rows[0]
        .n as number
    const req = request(`${provider.url}/api/watches/broken/subjects`, {
      method: 'POST',
      headers: { 'x-pf-api-key': API_KEY, 'content-type': 'application/x-ndjson' },
    })
    req.on('error', () => {})
    req.write(jsonl(subjectsOf(SUBJECT_BATCH + 10)))
    while ((await count()) < SUBJECT_BATCH) await new Promise((resolve) => setTimeout(resolve, 20))
    req.destroy()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await count()).toBe(SUBJECT_BATCH)
    const retry = await api(
      provider.url,
      'POST',
      '/watches/broken/subjects',
      jsonl(subjectsOf(SUBJECT_BATCH + 10)),
      {
        'content-type': 'application/x-ndjson',
      },
    )
    expect(retry.body.accepted).toBe(SUBJECT_BATCH + 10)
    expect(await count()).toBe(SUBJECT_BATCH + 10)
  })
})

describe('decisions', () => {
  it('refuses an unknown subject (404) and a bad decision (400); keeps the history', async () => {
    await api(provider.url, 'PUT', '/watches/dec', watch)
    await api(provider.url, 'POST', '/watches/dec/subjects', [{ subjectId: 'd1', name: 'Dora Example' }])
    const decide = (body: Record<string, unknown>) =>
      api(provider.url, 'POST', '/watches/dec/decisions', body)
    const base = { subjectId: 'd1', list: 'watch-test', entryId: 'E1' }
    expect((await decide({ ...base, subjectId: 'nobody', decision: 'match' })).status).toBe(404)
    expect((await decide({ ...base, decision: 'maybe' })).status).toBe(400)
    expect((await decide({ ...base, decision: 'match', note: 'n'.repeat(2001) })).status).toBe(400)
    expect((await decide({ ...base, decision: 'false_positive', decidedBy: 'rev-1' })).status).toBe(201)
    expect((await decide({ ...base, decision: 'match', note: 'on second look' })).status).toBe(201)
    const shown = await api(provider.url, 'GET', '/watches/dec/subjects/d1')
    expect(shown.body.decisions.map((d: { decision: string }) => d.decision)).toEqual([
      'false_positive',
      'match',
    ])
  })
})
