import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { SIGNATURE_HEADER, verifyCallback } from '@pf/signing'
import { createCleanup, startServiceProcess } from '@pf/testkit'
import { startPostgres } from '@pf/testkit/postgres'
import { eventually } from './support-eventually'
import { API_KEY, startRecorder } from './support-http'
import { api, listFile } from './support-watches'

// Issue 40 through the built provider (dist/main.js) on a private PostgreSQL: a watch, subjects loaded, the
// screener's `new` alert delivered to a local receiver signed with the watch's token, a decision recorded; then
// the list file changed and reloaded (SIGHUP): the re-screen's `new` alert, a decision, the entry changed, `changed`.
const main = join(__dirname, '..', 'dist', 'main.js')
const cleanup = createCleanup(afterAll)
const list = listFile('e2e-list')
const token = 'e2e-alert-token'
let url: string
let receiver: Awaited<ReturnType<typeof startRecorder>>
let provider: Awaited<ReturnType<typeof startServiceProcess>>
const bout = { id: 'E1', name: 'Viktor Bout', type: 'individual', programs: ['TEST'] }
const later = { id: 'E2', name: 'Amaranta Quillfeather', type: 'individual', programs: ['TEST'] }

beforeAll(async () => {
  if (!existsSync(main)) throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
  list.write([bout])
  const postgres = cleanup.add(await startPostgres(), (p) => p.destroy())
  receiver = cleanup.add(await startRecorder(), (r) => r.close())
  provider = cleanup.add(
    await startServiceProcess({
      entry: main,
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        PF_API_KEY: API_KEY,
        OUTBOUND_ALLOW_PRIVATE: 'true',
        SANCTIONS_SOURCES: list.path,
        WATCHES_DATABASE_URL: postgres.url,
        // Idle polls far apart: the upload wakes the screener and the screener's alerts wake the deliverer.
        WATCH_SCREENING_INTERVAL_MS: '3600000',
        WATCH_ALERT_POLL_MS: '600000',
      },
      readyMessage: 'provider listening',
    }),
    (p) => p.stop(),
  )
  url = (provider.readyLine as { url: string }).url
})

interface AlertBody {
  watchId: string
  sequence: number
  alerts: {
    subjectId: string
    kind: string
    hit: {
      lists: { name: string; id: string; version: string }[]
      explanation: { algorithm: string }
    }
  }[]
}

/** The `n`th alert batch received (1 first), its signature checked with the watch's token. */
async function batchNumber(n: number): Promise<AlertBody> {
  await eventually(() => receiver.requests.length >= n)
  const request = receiver.requests[n - 1]!
  const signature = request.headers[SIGNATURE_HEADER.toLowerCase()] as string
  expect(verifyCallback(token, request.body, signature)).toBe(true)
  return JSON.parse(request.body.toString('utf8')) as AlertBody
}

/** Rewrites the list file and reloads it as an operator does (`kill -HUP`), until /api/lists shows it. */
async function reloadList(entries: Record<string, unknown>[]): Promise<string> {
  const before = (await api(url, 'GET', '/lists')).body.lists[0].sha256 as string
  list.write(entries)
  provider.child.kill('SIGHUP')
  let version = before
  await eventually(async () => {
    const [current] = (await api(url, 'GET', '/lists')).body.lists
    version = current.version
    return current.sha256 !== before
  })
  return version
}

it('delivers a signed `new` alert for a listed subject, then records a false_positive decision', async () => {
  expect((await api(url, 'PUT', '/watches/e2e', { alertUrl: receiver.url, alertToken: token })).status).toBe(
    201,
  )
  const loaded = await api(url, 'POST', '/watches/e2e/subjects', [
    { subjectId: 'listed', name: 'Viktor Bout' },
    { subjectId: 'clean', name: 'Peter Nobody Else' },
    { subjectId: 'later', name: 'Amaranta Quillfeather' },
  ])
  expect(loaded.body).toMatchObject({ accepted: 3, rejectedCount: 0 })

  await eventually(() => receiver.requests.length > 0)
  const [request] = receiver.requests
  const signature = request?.headers[SIGNATURE_HEADER.toLowerCase()] as string
  expect(verifyCallback(token, request!.body, signature)).toBe(true)
  expect(verifyCallback('another-token', request!.body, signature)).toBe(false)
  const batch = JSON.parse(request!.body.toString('utf8')) as AlertBody
  expect(batch).toMatchObject({ watchId: 'e2e', sequence: 1 })
  expect(batch.alerts.map(({ subjectId, kind }) => ({ subjectId, kind }))).toEqual([
    { subjectId: 'listed', kind: 'new' },
  ])
  const entry = batch.alerts[0]!.hit.lists[0]!
  await eventually(async () => (await api(url, 'GET', '/watches/e2e/alerts')).body.alerts?.length === 0)

  const decided = await api(url, 'POST', '/watches/e2e/decisions', {
    subjectId: 'listed',
    list: entry.name,
    entryId: entry.id,
    decision: 'false_positive',
    decidedBy: 'reviewer',
  })
  expect(decided.status).toBe(201)
  const subject = await api(url, 'GET', '/watches/e2e/subjects/listed')
  expect(subject.body.hits).toHaveLength(1)
  expect(subject.body.hits[0].decisions).toMatchObject([
    { list: entry.name, entryId: entry.id, decision: 'false_positive', decidedBy: 'reviewer' },
  ])
})

it('re-screens a list change: a signed `new` alert naming the list version, silenced by a false_positive until the entry changes, then `changed`', async () => {
  const version = await reloadList([bout, later])
  const added = await batchNumber(2)
  expect(added).toMatchObject({ watchId: 'e2e', sequence: 2 })
  expect(added.alerts.map(({ subjectId, kind }) => ({ subjectId, kind }))).toEqual([
    { subjectId: 'later', kind: 'new' },
  ])
  const { hit } = added.alerts[0]!
  expect(hit.lists).toEqual([{ name: 'e2e-list', id: 'E2', version }])
  expect(hit.explanation.algorithm).toEqual(expect.any(String))

  const decided = await api(url, 'POST', '/watches/e2e/decisions', {
    subjectId: 'later',
    list: 'e2e-list',
    entryId: 'E2',
    decision: 'false_positive',
  })
  expect(decided.status).toBe(201)
  // Remarks do not decide a match: no change of the entry, no alert.
  await reloadList([bout, { ...later, remarks: 'reviewed' }])
  const changedVersion = await reloadList([bout, { ...later, programs: ['TEST', 'MORE'] }])
  const changed = await batchNumber(3)
  expect(changed).toMatchObject({ watchId: 'e2e', sequence: 3 })
  expect(changed.alerts.map(({ subjectId, kind }) => ({ subjectId, kind }))).toEqual([
    { subjectId: 'later', kind: 'changed' },
  ])
  expect(changed.alerts[0]!.hit.lists).toEqual([{ name: 'e2e-list', id: 'E2', version: changedVersion }])
  expect(receiver.requests).toHaveLength(3)
  // Both came from the re-screen of what each refresh changed, not from screening every subject again.
  // (Its log lines may reach this process after the alert did.)
  const logged = (message: string) => provider.logs.filter(({ msg }) => msg === message).length
  await eventually(() => logged('list changes re-screened for the watches') === 2)
  expect(logged('list change recorded for the watches')).toBe(2)
  expect(
    logged('the watches were not at this list version: every subject watching the list is screened again'),
  ).toBe(0)
})
