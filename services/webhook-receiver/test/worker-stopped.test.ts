import { Writable } from 'node:stream'
import { createLogger, listen, type RunningServer } from '@pf/service-kit'
import { redisCommand, startRedis, type RedisHandle } from '@pf/testkit/redis'
import { loadWorkerConfig } from '../src/config/worker-config'
import { createWorker, type WebhookWorkerService } from '../src/worker/create-worker'
import { uniquePrefix, waitFor } from './support'

// BullMQ's worker asks Redis for INFO (its version check) before its fetch loop starts; a Redis user that may
// not run INFO (a hardened ACL: `-@dangerous`) makes `run()` reject, and the loop never starts again. ioredis
// itself skips its own INFO ready check on NOPERM, so PING still answers: only the consumer knows it stopped.
let redis: RedisHandle
let port: number
const running: { service: WebhookWorkerService; server: RunningServer }[] = []

beforeAll(async () => {
  redis = await startRedis({ fallbackUrl: process.env.REDIS_URL })
  if (!redis.isPrivate)
    throw new Error('these tests change the ACL of Redis: they need a private redis-server')
  port = Number(new URL(redis.url).port)
})
beforeEach(() => {
  // ioredis warns on stderr that it skips its ready check; the worker's own log is what is asserted.
  jest.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(async () => {
  for (const { service, server } of running.splice(0)) {
    await server.close()
    await service.close()
  }
  await redisCommand(port, ['ACL', 'SETUSER', 'default', '+info'])
  jest.restoreAllMocks()
})
afterAll(() => redis.stop())

interface LogLine {
  level: number
  msg: string
  err?: { type?: string; message?: string; stack?: string }
  queuePrefix?: string
}

/** The real worker (config from its environment, ops app on an ephemeral port), its log lines kept. */
async function startWorker(env: Record<string, string> = {}) {
  const lines: LogLine[] = []
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as LogLine)
      done()
    },
  })
  const logger = createLogger({ name: 'test', level: 'info', destination })
  const config = loadWorkerConfig({
    REDIS_URL: redis.url,
    WEBHOOK_QUEUE_PREFIX: uniquePrefix(),
    READY_CACHE_MS: '0',
    ...env,
  })
  const service = createWorker(config, { logger, handlers: {} })
  const server = await listen(service.app, { port: 0, host: '127.0.0.1' })
  running.push({ service, server })
  await service.start()
  const stoppedLines = () => lines.filter((line) => line.msg.startsWith('worker stopped taking jobs'))
  const readyStatus = async () => (await fetch(`${server.url}/ready`)).status
  return { service, lines, stoppedLines, readyStatus }
}

const ERROR_LEVEL = 50

describe("the worker's readiness says whether its queues are consumed", () => {
  it('is ready while the consumer takes jobs (Redis lets it run INFO)', async () => {
    const worker = await startWorker()
    await expect(worker.service.ready()).resolves.toBeUndefined()
    expect(await worker.readyStatus()).toBe(200)
    expect(worker.stoppedLines()).toEqual([])
  })

  it('logs a consumer stopped for good at error, and /ready answers 503 though Redis answers PING', async () => {
    await redisCommand(port, ['ACL', 'SETUSER', 'default', '-info'])
    const worker = await startWorker()
    await waitFor(() => worker.stoppedLines().length === 1, 10_000, 'the stopped consumer logged')
    const [line] = worker.stoppedLines()
    expect(line).toMatchObject({ level: ERROR_LEVEL, err: { message: expect.stringContaining('NOPERM') } })
    expect(line!.err!.message).toMatch(/info/i)
    // Redis still answers: the old check (PING alone) said ready.
    expect(await redisCommand(port, ['PING'])).toBe('PONG')
    await expect(worker.service.ready()).rejects.toThrow(/stopped taking jobs.*NOPERM/)
    expect(await worker.readyStatus()).toBe(503)
    // The ops router logs the reason of the failed check, without the Redis address's secrets.
    expect(worker.lines.some((l) => l.msg === 'readiness check failed')).toBe(true)
  })

  it('with several shards, a stopped shard fails /ready', async () => {
    await redisCommand(port, ['ACL', 'SETUSER', 'default', '-info'])
    const worker = await startWorker({ QUEUE_SHARDS: '2' })
    await waitFor(() => worker.stoppedLines().length >= 1, 10_000, 'a stopped shard logged')
    expect(worker.stoppedLines()[0]).toMatchObject({ level: ERROR_LEVEL })
    expect(await worker.readyStatus()).toBe(503)
    // Each shard's consumer says which queue stopped.
    await waitFor(() => worker.stoppedLines().length === 2, 10_000, 'both shards logged')
    const prefixes = new Set(worker.stoppedLines().map((line) => line.queuePrefix))
    expect(prefixes.size).toBe(2)
  })
})
