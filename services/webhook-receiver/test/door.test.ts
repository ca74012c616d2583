import { once } from 'node:events'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { get } from 'node:https'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import selfsigned from 'selfsigned'
import { startServiceProcess, type ServiceProcess } from '@pf/testkit'
import { redisCommand, startRedis, type RedisHandle } from '@pf/testkit/redis'
import { SECRET, uniquePrefix } from './support'

// Issue 22, "the door says little", through the built receiver and worker (dist/): /health and /ready say
// their status only, /ready reaches Redis at most once per READY_CACHE_MS, /metrics moves to METRICS_PORT;
// and a receiver serving TLS itself closes sockets that never start their handshake.
const dist = join(__dirname, '..', 'dist')
const running: ServiceProcess[] = []
let redis: RedisHandle

beforeAll(async () => {
  redis = await startRedis({ fallbackUrl: process.env.REDIS_URL })
})
afterEach(async () => {
  for (const service of running.splice(0)) await service.stop('SIGKILL')
})
afterAll(() => redis.stop())

async function start(entry: 'main.js' | 'worker.js', env: Record<string, string>) {
  const service = await startServiceProcess({
    entry: join(dist, entry),
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      REDIS_URL: redis.url,
      PF_WEBHOOK_SECRET: SECRET,
      WEBHOOK_QUEUE_PREFIX: uniquePrefix(),
      ...env,
    },
    readyMessage: entry === 'main.js' ? 'webhook receiver listening' : 'webhook worker running',
  })
  running.push(service)
  return service.readyLine as { url: string; metricsUrl?: string }
}

/** How many PINGs the private Redis has answered so far. */
async function pings(): Promise<number> {
  const stats = String(await redisCommand(Number(new URL(redis.url).port), ['INFO', 'commandstats']))
  return Number(/^cmdstat_ping:calls=(\d+)/m.exec(stats)?.[1] ?? 0)
}

describe.each(['main.js', 'worker.js'] as const)('%s: the door says little', (entry) => {
  it('answers /health and /ready {status} only, and serves /metrics on METRICS_PORT alone', async () => {
    const { url, metricsUrl } = await start(entry, { METRICS_PORT: '0' })
    expect(await (await fetch(`${url}/health`)).text()).toBe('{"status":"ok"}')
    expect(await (await fetch(`${url}/ready`)).text()).toBe('{"status":"ready"}')
    expect((await fetch(`${url}/metrics`)).status).toBe(404)
    const metrics = await fetch(`${metricsUrl}/metrics`)
    expect(metrics.status).toBe(200)
    const prefix = entry === 'main.js' ? 'pf_receiver' : 'pf_worker'
    expect(await metrics.text()).toMatch(new RegExp(`^${prefix}_process_cpu_user_seconds_total `, 'm'))
    expect((await fetch(`${metricsUrl}/health`)).status).toBe(404)
  })

  it('sends Redis one PING for 40 strangers calling /ready at once and 20 more after them (READY_CACHE_MS)', async () => {
    if (!redis.isPrivate) return // a shared Redis answers other clients' PINGs too
    const { url } = await start(entry, { READY_CACHE_MS: '600000' })
    const before = await pings()
    const burst = await Promise.all(Array.from({ length: 40 }, () => fetch(`${url}/ready`)))
    for (let i = 0; i < 20; i += 1) expect((await fetch(`${url}/ready`)).status).toBe(200)
    expect(burst.map((res) => res.status)).toEqual(Array.from({ length: 40 }, () => 200))
    expect((await pings()) - before).toBe(1)
  })
})

describe('receiver serving TLS itself (TLS_CERT_FILE, TLS_KEY_FILE)', () => {
  /** One HTTPS GET on a fresh connection: `<status> <body>`, or the code of the error that ended it. */
  const httpsGet = (url: string) =>
    new Promise<string>((resolve) => {
      get(url, { rejectUnauthorized: false, agent: false }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk.toString()))
        res.on('end', () => resolve(`${res.statusCode} ${body}`))
      }).once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
    })

  it('closes sockets that never send a ClientHello after HTTP_HEADERS_TIMEOUT_MS, then serves new clients', async () => {
    const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
      notAfterDate: new Date(Date.now() + 24 * 3600 * 1000),
    })
    const dir = mkdtempSync(join(tmpdir(), 'pf-tls-'))
    writeFileSync(join(dir, 'cert.pem'), pems.cert)
    writeFileSync(join(dir, 'key.pem'), pems.private)
    const { url } = await start('main.js', {
      TLS_CERT_FILE: join(dir, 'cert.pem'),
      TLS_KEY_FILE: join(dir, 'key.pem'),
      HTTP_MAX_CONNECTIONS: '3',
      HTTP_HEADERS_TIMEOUT_MS: '1000',
      HTTP_REQUEST_TIMEOUT_MS: '1000',
    })
    const { port } = new URL(url)
    // Three clients open TCP and say nothing: the whole connection cap.
    const silent = Array.from({ length: 3 }, () => {
      const socket = connect(Number(port), '127.0.0.1')
      socket.on('error', () => {})
      let received = ''
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()))
      return { socket, closed: once(socket, 'close').then(() => received) }
    })
    await Promise.all(silent.map(({ socket }) => once(socket, 'connect')))
    // Closed by the server past the header time-out (Node's default: 120 s, the cap held all that time)...
    expect(await Promise.all(silent.map(({ closed }) => closed))).toEqual(['', '', ''])
    // ...after which a platform delivery gets through again.
    expect(await httpsGet(`${url}/health`)).toBe('200 {"status":"ok"}')
  })
})
