import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { SIGNATURE_HEADER, verifyCallback } from '@pf/signing'
import { createCleanup, startServiceProcess } from '@pf/testkit'
import { startPostgres } from '@pf/testkit/postgres'
import { eventually } from './support-eventually'
import { API_KEY, startRecorder } from './support-http'
import { api, listFile } from './support-watches'

// Issue 40 through the built provider (dist/main.js) on a private PostgreSQL: a watch, subjects loaded, the
// screener's `new` alert delivered to a local receiver signed with the watch's token, a decision recorded.
const main = join(__dirname, '..', 'dist', 'main.js')
const cleanup = createCleanup(afterAll)
const list = listFile('e2e-list')
const token = 'e2e-alert-token'
let url: string
let receiver: Awaited<ReturnType<typeof startRecorder>>

beforeAll(async () => {
  if (!existsSync(main)) throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
  list.write([{ id: 'E1', name: 'Viktor Bout', type: 'individual', programs: ['TEST'] }])
  const postgres = cleanup.add(await startPostgres(), (p) => p.destroy())
  receiver = cleanup.add(await startRecorder(), (r) => r.close())
  const provider = cleanup.add(
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
  alerts: { subjectId: string; kind: string; hit: { lists: { name: string; id: string }[] } }[]
}

it('delivers a signed `new` alert for a listed subject, then records a false_positive decision', async () => {
  expect((await api(url, 'PUT', '/watches/e2e', { alertUrl: receiver.url, alertToken: token })).status).toBe(
    201,
  )
  const loaded = await api(url, 'POST', '/watches/e2e/subjects', [
    { subjectId: 'listed', name: 'Viktor Bout' },
    { subjectId: 'clean', name: 'Peter Nobody Else' },
  ])
  expect(loaded.body).toMatchObject({ accepted: 2, rejectedCount: 0 })

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
