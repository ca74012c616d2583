import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCleanup, freePort, startServiceProcess } from '@pf/testkit'
import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import { makeEvent, postSigned, SECRET, uniquePrefix, waitFor, workerConnection } from './support'

// `dead-letters show <id>` and `--help`, through the built command as an operator runs it.
const dist = join(__dirname, '..', 'dist')
const cleanup = createCleanup(afterAll)
let redis: RedisHandle
beforeAll(async () => {
  redis = cleanup.add(await startRedis({ fallbackUrl: process.env.REDIS_URL }), (r) => r.stop())
})
const deadLetters = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, [join(dist, 'dead-letters.js'), ...args], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  })
const start = async (entry: string, env: Record<string, string>, readyMessage: string) =>
  cleanup.add(
    await startServiceProcess({
      entry: join(dist, entry),
      env: { PATH: process.env.PATH, ...env },
      readyMessage,
    }),
    (service) => service.stop('SIGTERM'),
  )

describe('pf-dead-letters show and --help', () => {
  it('--help prints the usage, show included, and exits 0', () => {
    const result = deadLetters(['--help'], {})
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(
      /^usage: pf-dead-letters list[\s\S]*pf-dead-letters show <webhookId\|jobId>/,
    )
    expect(result.stdout).toContain('(default 3000)')
  })

  it("gives up on an unreachable Redis with one line after DEAD_LETTERS_TIMEOUT_MS' default, 3000 ms", async () => {
    const result = deadLetters(['show', 'wh_x'], { REDIS_URL: `redis://127.0.0.1:${await freePort()}` })
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(
      /^pf-dead-letters: reaching Redis at redis:\/\/127\.0\.0\.1:\d+ \(prefix \{pf\}\) took longer than 3000 ms\n$/,
    )
  })

  it("shows a handler's failure whole: the event, the error and its stack, the attempts and times; and a quarantined event's validation errors", async () => {
    const prefix = uniquePrefix()
    // Attempts and backoff are the job's, set by the receiver when it enqueues.
    const env = {
      REDIS_URL: redis.url,
      WEBHOOK_QUEUE_PREFIX: prefix,
      PF_WEBHOOK_SECRET: SECRET,
      PORT: '0',
      WEBHOOK_JOB_ATTEMPTS: '2',
      WEBHOOK_JOB_BACKOFF_MS: '10',
    }
    const receiver = await start('main.js', env, 'webhook receiver listening')
    const dir = mkdtempSync(join(tmpdir(), 'pf-show-'))
    const handlers = join(dir, 'handlers.cjs')
    writeFileSync(
      handlers,
      `exports.handlers = { 'purchase.completed': async () => { throw new Error('the ledger is closed') } }\n`,
    )
    await start(
      'worker.js',
      {
        ...env,
        WEBHOOK_HANDLERS: handlers,
        WEBHOOK_JOB_ATTEMPTS: '2',
        WEBHOOK_JOB_BACKOFF_MS: '10',
        PORT: '0',
      },
      'webhook worker running',
    )
    const url = `${(receiver.readyLine as { url: string }).url}/webhooks/pf`
    const failing = makeEvent('purchase.completed')
    const invalid = makeEvent('purchase.completed', { data: { purchaseId: 'p_1' } })
    for (const event of [failing, invalid])
      expect((await postSigned(url, JSON.stringify(event))).status).toBe(200)
    const listed = () => JSON.parse(deadLetters(['list', '--json'], env).stdout) as { webhookId: string }[]
    await waitFor(() => listed().some((l) => l.webhookId === failing.webhookId), 10_000, 'the dead letter')

    const shown = deadLetters(['show', failing.webhookId], env)
    expect(shown.status).toBe(0)
    expect(shown.stdout).toMatch(
      new RegExp(
        [
          '^dead letter \\S+',
          `  event {8}purchase\\.completed  webhookId ${failing.webhookId}`,
          '  reason {7}handler_failed: the ledger is closed',
          '  attempts {5}2',
          '  received {5}\\d{4}-\\d\\d-\\d\\dT',
        ].join('\\n'),
      ),
    )
    expect(shown.stdout).toMatch(/ {2}stack \(last attempt\)\n {4}Error: the ledger is closed\n +at /)
    expect(shown.stdout).toContain(`"idempotencyKey": "${String(failing.data.idempotencyKey)}"`)
    const json = JSON.parse(deadLetters(['show', failing.webhookId, '--json'], env).stdout) as {
      jobId: string
      body: unknown
    }
    expect(json.body).toEqual(failing)
    // The job id works as well as the webhookId.
    expect(deadLetters(['show', json.jobId], env).stdout).toContain(failing.webhookId)

    const quarantined = deadLetters(['show', invalid.webhookId], env)
    expect(quarantined.stdout).toMatch(/ {2}reason {7}invalid_data: .*data\.sessionId is required/)
    expect(quarantined.stdout).toContain('"purchaseId": "p_1"')

    const missing = deadLetters(['show', 'wh_missing'], env)
    expect(missing).toMatchObject({
      status: 1,
      // Where it looked: a wrong prefix or Redis is the usual reason.
      stderr: `pf-dead-letters: no dead letter with id wh_missing at ${redis.url}, queue prefix ${env.WEBHOOK_QUEUE_PREFIX}\n`,
    })
    expect(deadLetters(['show'], env)).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/say which one to show/),
    })
  })
})

describe('pf-dead-letters reads quarantined bodies one at a time (issue 35)', () => {
  it('with 16 quarantined events of 1 MB held (WEBHOOK_QUARANTINE_MAX_BYTES), list fetches no body from Redis and show only the one it prints', async () => {
    // A Redis of its own: what it sends to its clients (INFO total_net_output_bytes) is what the command fetched.
    const own = cleanup.add(await startRedis(), (r) => r.stop())
    const env = {
      REDIS_URL: own.url,
      WEBHOOK_QUEUE_PREFIX: uniquePrefix(),
      PF_WEBHOOK_SECRET: SECRET,
      PORT: '0',
      WEBHOOK_QUARANTINE_MAX_BYTES: String(16 * 1024 * 1024),
    }
    const receiver = await start('main.js', env, 'webhook receiver listening')
    const url = `${(receiver.readyLine as { url: string }).url}/webhooks/pf`
    // Invalid (email: null) and about 1 MB each, under WEBHOOK_MAX_BODY_BYTES' 1 MiB.
    const MB = 1_000_000
    const events = Array.from({ length: 20 }, (_, i) =>
      makeEvent('session.created', {
        data: { ...makeEvent('session.created').data, email: null, note: String(i % 10).repeat(MB) },
      }),
    )
    for (const event of events) expect((await postSigned(url, JSON.stringify(event))).status).toBe(200)
    await receiver.stop('SIGTERM')

    const info = workerConnection(own.url)
    const sentToClients = async () =>
      Number(/total_net_output_bytes:(\d+)/.exec(await info.info('stats'))?.[1] ?? Number.NaN)
    const fetching = async (args: string[]) => {
      const before = await sentToClients()
      const result = deadLetters(args, env)
      return { result, fetched: (await sentToClients()) - before }
    }
    try {
      const listed = await fetching(['list', '--json'])
      expect(listed.result.status).toBe(0)
      // 16 of about 1 MB fit in 16 MiB, 17 would not: the newest 16 are held.
      const letters = JSON.parse(listed.result.stdout) as { webhookId: string; reason: string }[]
      expect(letters.map((l) => l.webhookId)).toEqual(
        events
          .slice(4)
          .map((e) => e.webhookId)
          .reverse(),
      )
      expect(listed.fetched).toBeLessThan(MB / 10)

      const oldest = events[4]!
      const shown = await fetching(['show', oldest.webhookId, '--json'])
      expect(shown.result.status).toBe(0)
      expect((JSON.parse(shown.result.stdout) as { body: unknown }).body).toEqual(oldest)
      expect(shown.fetched).toBeGreaterThan(MB)
      expect(shown.fetched).toBeLessThan(MB + MB / 10)
    } finally {
      info.disconnect()
    }
  })
})
