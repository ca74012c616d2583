import { once } from 'node:events'
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from 'pg'
import { createCleanup, startServiceProcess, type ServiceProcess } from '@pf/testkit'
import { startPostgres, type PostgresHandle } from '@pf/testkit/postgres'
import { importCompanies } from '../src/companies/import/import-companies'
import { startRecorder, startStore } from './support-http'

// Issue 35: "a delivery is never cut short and counted as whole". The built provider, its companies in a private
// PostgreSQL (200,000 of them: a body of some 30 MB, far more than the sockets hold), webhook targets that
// answer before they read the body, then read it all, part of it, none of it, or hang up.
const RECORDS = 200_000
const API_KEY = 'pf-demo-api-key'

const cleanup = createCleanup(afterAll)
let postgres: PostgresHandle
let callbacks: Awaited<ReturnType<typeof startRecorder>>
/**
 * Time-outs far above any wait (a busy CI machine streams 200 000 rows slowly: a query must not fail on time there);
 * DELIVERY_TIMEOUT_MS 3 s (the socket's idle time a minute); the idle time 2 s.
 */
let provider: ServiceProcess
let deliveryBound: ServiceProcess
let idleBound: ServiceProcess

beforeAll(async () => {
  const folder = mkdtempSync(join(tmpdir(), 'pf-webhook-'))
  cleanup.defer(() => rmSync(folder, { recursive: true, force: true }))
  const file = join(folder, 'bulk-companies.jsonl')
  const out = createWriteStream(file)
  for (let n = 1; n <= RECORDS; n += 1) {
    const line = `{"id":"b${n}","name":"Bulk Company ${n} Ltd","country":"NZ","industry":"Testing"}\n`
    if (!out.write(line)) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
  postgres = cleanup.add(await startPostgres(), (p) => p.destroy())
  await importCompanies({ databaseUrl: postgres.url, source: 'bulk', files: [file] })
  const s3 = cleanup.add(await startStore(), (s) => s.stop())
  callbacks = cleanup.add(await startRecorder(), (r) => r.close())
  const start = (env: Record<string, string>) =>
    startServiceProcess({
      entry: join(__dirname, '..', 'dist', 'main.js'),
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        S3_ENDPOINT: s3.endpoint,
        AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
        COMPANIES_DATABASE_URL: postgres.url,
        COMPANIES_DATABASE_POOL: '2',
        OUTBOUND_ALLOW_PRIVATE: 'true',
        ...env,
      },
      readyMessage: 'provider listening',
    }).then((started) => cleanup.add(started, (p) => p.stop('SIGKILL')))
  ;[provider, deliveryBound, idleBound] = await Promise.all([
    start({ OUTBOUND_TIMEOUT_MS: '120000', COMPANIES_DATABASE_TIMEOUT_MS: '120000' }),
    start({ DELIVERY_TIMEOUT_MS: '3000', OUTBOUND_TIMEOUT_MS: '60000' }),
    start({ DELIVERY_TIMEOUT_MS: '600000', OUTBOUND_TIMEOUT_MS: '2000' }),
  ])
})

const urlOf = (process: ServiceProcess) => (process.readyLine as { url: string }).url

let counter = 0
/** POSTs a companies query with every record (no filter, no limit) to be delivered by webhook to `target`. */
async function deliverAll(to: ServiceProcess, target: string) {
  const queryId = `webhook-${++counter}`
  const res = await fetch(`${urlOf(to)}/api/search/companies`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pf-api-key': API_KEY },
    body: JSON.stringify({
      queryId,
      callbackUrl: `${callbacks.url}/callbacks`,
      callbackToken: 'cb-token',
      parameters: {},
      delivery: { mechanism: 'webhook', url: target },
    }),
  })
  const callback = callbacks.requests
    .map((request) => JSON.parse(request.body.toString()) as Record<string, unknown>)
    .find((body) => body.queryId === queryId)
  return { queryId, status: res.status, body: (await res.json()) as Record<string, unknown>, callback }
}

/** A webhook target on `net`, so it can answer without reading: what it does with each connection. */
async function startRawTarget(onConnection: (socket: Socket) => void) {
  const sockets = new Set<Socket>()
  const server: Server = createNetServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
    onConnection(socket)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  cleanup.defer(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  )
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`
}

const ACCEPTED = 'HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n'

/** Answers 202 at once, then reads `bytes` of the request (none: not even its headers) and stops reading. */
const answersThenStops = (bytes: number) =>
  startRawTarget((socket) => {
    socket.write(ACCEPTED)
    if (bytes === 0) return void socket.pause()
    let read = 0
    socket.on('data', (chunk: Buffer) => {
      read += chunk.length
      if (read >= bytes) socket.pause()
    })
  })

/** The provider's sessions that are not idle: an open delivery cursor is one (its portal, mid-transaction). */
async function busySessions(): Promise<number> {
  const client = new Client({ connectionString: postgres.url })
  await client.connect()
  try {
    const { rows } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'pf-provider' AND state <> 'idle'",
    )
    return Number(rows[0]?.n)
  } finally {
    await client.end()
  }
}

async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50))
}

describe('a webhook delivery is never cut short and counted as whole (issue 35)', () => {
  it('a target that answers 202 before reading gets the whole body; recordCount is what was sent', async () => {
    let received = Buffer.alloc(0)
    const server = createHttpServer((req, res) => {
      res.writeHead(202, { 'content-length': '0' }).end()
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => (received = Buffer.concat(chunks)))
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    cleanup.defer(
      () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
    )
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`

    const { queryId, status, body, callback } = await deliverAll(provider, target)
    expect({ status, body }).toMatchObject({ status: 200, body: { queryId, recordCount: RECORDS } })
    expect(callback).toMatchObject({ status: 'delivered', recordCount: RECORDS })
    await eventually(async () => received.length > 0)
    const delivered = JSON.parse(received.toString()) as { id: string }[]
    expect(delivered).toHaveLength(RECORDS)
    expect(delivered[RECORDS - 1]).toMatchObject({ id: `b${RECORDS}`, name: `Bulk Company ${RECORDS} Ltd` })
  })

  it.each([
    ['reads nothing', 0],
    ['reads 64 KiB, then stops', 64 * 1024],
  ])(
    'a target that answers 202 at once and %s: bounded by DELIVERY_TIMEOUT_MS, failed callback and 500, the cursor released',
    async (_what, bytes) => {
      const target = await answersThenStops(bytes)
      const answered = deliverAll(deliveryBound, target)
      // Meanwhile the delivery holds its cursor open, waiting for the target.
      await eventually(async () => (await busySessions()) > 0)
      const { queryId, status, body, callback } = await answered
      expect({ status, body }).toEqual({ status: 500, body: { error: 'delivery failed', queryId } })
      expect(callback).toMatchObject({ status: 'failed', recordCount: 0, error: 'delivery failed' })
      await eventually(async () => (await busySessions()) === 0)
    },
  )

  it("a target that answers early and then reads nothing for OUTBOUND_TIMEOUT_MS fails the query (the socket's idle time)", async () => {
    const target = await answersThenStops(64 * 1024)
    const { queryId, status, body, callback } = await deliverAll(idleBound, target)
    expect({ status, body }).toEqual({ status: 500, body: { error: 'delivery failed', queryId } })
    expect(callback).toMatchObject({ status: 'failed', recordCount: 0 })
    await eventually(async () => (await busySessions()) === 0)
  })

  it('a target that answers early and hangs up: the body cannot be sent whole, the query fails', async () => {
    const target = await startRawTarget((socket) => {
      socket.once('data', () =>
        socket.end('HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n', () =>
          socket.destroy(),
        ),
      )
    })
    const { queryId, status, body, callback } = await deliverAll(provider, target)
    expect({ status, body }).toEqual({ status: 500, body: { error: 'delivery failed', queryId } })
    expect(callback).toMatchObject({ status: 'failed', recordCount: 0 })
    await eventually(async () => (await busySessions()) === 0)
  })
})
