import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, startServiceProcess, type ServiceProcess } from '@pf/testkit'
import { startRedis, type RedisHandle } from '@pf/testkit/redis'
import { makeEvent, postSigned, SECRET, startReceiver, uniquePrefix, waitFor } from './support'
import { formatDeadLetterList } from '../src/worker/format-dead-letter-list'

// These run the built entry points (dist/), as Kubernetes would; `pnpm test` builds first.
const dist = join(__dirname, '..', 'dist')
const running: ServiceProcess[] = []
let redis: RedisHandle

beforeAll(async () => {
  if (!existsSync(join(dist, 'worker.js')))
    throw new Error('dist/ is missing: run `pnpm build` (pnpm test does)')
  redis = await startRedis({ fallbackUrl: process.env.REDIS_URL })
})
afterEach(async () => {
  for (const service of running.splice(0)) await service.stop('SIGKILL')
})
afterAll(() => redis.stop())

async function start(entry: 'main.js' | 'worker.js', env: Record<string, string>) {
  const service = await startServiceProcess({
    entry: join(dist, entry),
    env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'info', ...env },
    readyMessage: entry === 'main.js' ? 'webhook receiver listening' : 'webhook worker running',
  })
  running.push(service)
  return service
}

// One handler written twice, as CommonJS and as an ES module: the first attempt of an event hangs (until the
// process is killed), any later attempt records which process completed it.
const handlerBody = `
  async (event) => {
    const marker = path.join(dir, 'started-' + event.webhookId)
    if (!fs.existsSync(marker)) {
      fs.writeFileSync(marker, String(process.pid))
      await new Promise(() => {})
    }
    fs.appendFileSync(path.join(dir, 'done'), event.webhookId + ' ' + process.pid + '\\n')
  }`

function writeHandlerModules(dir: string) {
  const cjs = join(dir, 'handlers.cjs')
  const esm = join(dir, 'handlers.mjs')
  writeFileSync(
    cjs,
    `const fs = require('fs'); const path = require('path'); const dir = ${JSON.stringify(dir)}
exports.handlers = { 'session.created': ${handlerBody} }\n`,
  )
  writeFileSync(
    esm,
    `import fs from 'node:fs'; import path from 'node:path'; const dir = ${JSON.stringify(dir)}
export const handlers = { 'session.created': ${handlerBody} }\n`,
  )
  return { cjs, esm }
}

/** A worker's settings for a queue of its own, with stalled jobs taken over within about 1.5 s. */
const fastRecovery = (prefix: string) => ({
  REDIS_URL: redis.url,
  WEBHOOK_QUEUE_PREFIX: prefix,
  WORKER_LOCK_DURATION_MS: '1000',
  WORKER_STALLED_INTERVAL_MS: '500',
})

describe('worker process', () => {
  it('loses nothing when killed mid-job: another worker picks the stalled job up (CommonJS and ESM handlers)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-worker-'))
    const modules = writeHandlerModules(dir)
    const prefix = uniquePrefix()
    const env = fastRecovery(prefix)
    const receiver = await startReceiver(redis.url, prefix)
    try {
      const first = await start('worker.js', { ...env, WEBHOOK_HANDLERS: modules.cjs })
      const event = makeEvent('session.created')
      expect((await postSigned(receiver.webhookUrl, JSON.stringify(event))).status).toBe(200)
      await waitFor(
        () => existsSync(join(dir, `started-${event.webhookId}`)),
        10_000,
        'worker A to start the job',
      )

      await first.stop('SIGKILL')
      const second = await start('worker.js', { ...env, WEBHOOK_HANDLERS: modules.esm })
      await waitFor(() => existsSync(join(dir, 'done')), 20_000, 'worker B to finish the job')
      expect(readFileSync(join(dir, 'done'), 'utf8')).toBe(`${event.webhookId} ${second.child.pid}\n`)
    } finally {
      await receiver.stop()
    }
  })

  // context.once: the effect writes a line to `effects`; the first worker is killed either during the effect
  // (it never completed: the next attempt must run it) or right after it (it must not run again).
  it.each(['during', 'after'])(
    'applies an effect exactly once when the worker is killed %s it (context.once)',
    async (when) => {
      const dir = mkdtempSync(join(tmpdir(), 'pf-once-'))
      const handlers = join(dir, 'handlers.cjs')
      writeFileSync(
        handlers,
        `const fs = require('fs'); const path = require('path'); const dir = ${JSON.stringify(dir)}
const hang = () => new Promise(() => {})
const mark = (what) => fs.appendFileSync(path.join(dir, 'marks'), what + ' ' + process.pid + '\\n')
exports.handlers = {
  'purchase.completed': async (event, { once }) => {
    const ran = await once('purchase:' + event.data.purchaseId, async () => {
      mark('effect-started')
      if (process.env.KILL_ME === 'during') await hang()
      fs.appendFileSync(path.join(dir, 'effects'), event.data.purchaseId + '\\n')
    })
    mark(ran ? 'ran' : 'skipped')
    if (process.env.KILL_ME === 'after') await hang()
  },
}
`,
      )
      const prefix = uniquePrefix()
      const env = { ...fastRecovery(prefix), WEBHOOK_HANDLERS: handlers }
      const receiver = await startReceiver(redis.url, prefix)
      const marks = () => (existsSync(join(dir, 'marks')) ? readFileSync(join(dir, 'marks'), 'utf8') : '')
      try {
        const first = await start('worker.js', { ...env, KILL_ME: when })
        const event = makeEvent('purchase.completed')
        expect((await postSigned(receiver.webhookUrl, JSON.stringify(event))).status).toBe(200)
        await waitFor(
          () => marks().includes(when === 'during' ? 'effect-started' : 'ran'),
          10_000,
          'worker A',
        )
        await first.stop('SIGKILL')

        const second = await start('worker.js', env)
        const finished = when === 'during' ? `ran ${second.child.pid}` : `skipped ${second.child.pid}`
        await waitFor(() => marks().includes(finished), 20_000, 'worker B to finish the job')
        const purchaseId = (event.data as { purchaseId: string }).purchaseId
        expect(readFileSync(join(dir, 'effects'), 'utf8')).toBe(`${purchaseId}\n`)
        // During: the second attempt took the dead claim over and ran the effect; after: it skipped it.
        expect(
          marks()
            .split('\n')
            .filter((line) => line.startsWith('effect-started')),
        ).toHaveLength(when === 'during' ? 2 : 1)
      } finally {
        await receiver.stop()
      }
    },
  )

  it('drains and exits 0 on SIGTERM sent the moment it says it is ready (5 of 5)', async () => {
    // The ready line comes after the signal handler: a SIGTERM right after it drains instead of killing.
    const exits: (number | null)[] = []
    for (let i = 0; i < 5; i += 1) {
      const worker = await start('worker.js', { REDIS_URL: redis.url, WEBHOOK_QUEUE_PREFIX: uniquePrefix() })
      exits.push(await worker.stop('SIGTERM'))
      expect(worker.logs.map((l) => l.msg)).toContain('shutdown complete')
    }
    expect(exits).toEqual([0, 0, 0, 0, 0])
  })

  it('exits 1 with one clear line when the handlers module is missing or malformed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-worker-'))
    const bad = join(dir, 'bad.cjs')
    writeFileSync(bad, `exports.handlers = { 'session.paused': async () => {} }\n`)
    for (const [path, message] of [
      [join(dir, 'missing.cjs'), /Cannot find module/],
      [bad, /unknown event kind "session.paused"/],
    ] as const) {
      const result = spawnSync(process.execPath, [join(dist, 'worker.js')], {
        env: { PATH: process.env.PATH, REDIS_URL: redis.url, WEBHOOK_HANDLERS: path },
        encoding: 'utf8',
      })
      expect(result.status).toBe(1)
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
      expect(result.stderr).toMatch(/^webhook-worker: failed to start: /)
      expect(result.stderr).toMatch(message)
    }
  })
})

describe('receiver process', () => {
  it('exits 1 with one line naming every bad setting', () => {
    const result = spawnSync(process.execPath, [join(dist, 'main.js')], {
      env: { PATH: process.env.PATH, PORT: 'http', WEBHOOK_DEDUP_TTL_SECONDS: '60', TLS_CERT_FILE: '/x.pem' },
      encoding: 'utf8',
    })
    expect(result.status).toBe(1)
    expect(result.stderr).toBe(
      'webhook-receiver: invalid configuration: PF_WEBHOOK_SECRET is required (comma-separated during a rotation); ' +
        'PORT must be an integer >= 0 and <= 65535 (got "http"); TLS_CERT_FILE and TLS_KEY_FILE must be set together; ' +
        'WEBHOOK_DEDUP_TTL_SECONDS must be an integer >= 29850 (got "60")\n',
    )
  })

  it('exits 1 in one line when WEBHOOK_MAX_AGE_SECONDS is not shorter than the dedup window', () => {
    const result = spawnSync(process.execPath, [join(dist, 'main.js')], {
      env: {
        PATH: process.env.PATH,
        PF_WEBHOOK_SECRET: SECRET,
        WEBHOOK_DEDUP_TTL_SECONDS: '86400',
        WEBHOOK_MAX_AGE_SECONDS: '86400',
      },
      encoding: 'utf8',
    })
    expect(result.status).toBe(1)
    expect(result.stderr).toBe(
      'webhook-receiver: invalid configuration: WEBHOOK_MAX_AGE_SECONDS must be shorter than WEBHOOK_DEDUP_TTL_SECONDS, ' +
        'so that a delivery replayed after its webhookId is forgotten is stale (got 86400 and 86400)\n',
    )
  })

  it('starts in production with a webhook secret under 32 bytes, saying so once at warn (the platform generates it); a placeholder still exits 1', async () => {
    const production = {
      NODE_ENV: 'production',
      ALLOW_PLAIN_HTTP: 'true',
      REDIS_URL: redis.url,
      WEBHOOK_QUEUE_PREFIX: uniquePrefix(),
    }
    const receiver = await start('main.js', { ...production, PF_WEBHOOK_SECRET: 'whsec_0123456789' })
    const { url } = receiver.readyLine as { url: string }
    const body = JSON.stringify(makeEvent('session.created'))
    expect((await postSigned(`${url}/webhooks/pf`, body, { secret: 'whsec_0123456789' })).status).toBe(200)
    expect(receiver.logs.filter((line) => line.level === 40).map((line) => line.msg)).toEqual([
      'PF_WEBHOOK_SECRET is 16 bytes, under 32: accepted, as the platform generates it',
    ])
    expect(JSON.stringify(receiver.logs)).not.toContain('whsec_0123456789')

    const placeholder = spawnSync(process.execPath, [join(dist, 'main.js')], {
      env: { PATH: process.env.PATH, ...production, PF_WEBHOOK_SECRET: 'change-me' },
      encoding: 'utf8',
    })
    expect(placeholder.status).toBe(1)
    expect(placeholder.stderr).toBe(
      'webhook-receiver: invalid configuration: PF_WEBHOOK_SECRET holds a placeholder or public value: set your own secret when NODE_ENV=production\n',
    )
  })

  it('serves, accepts a signed webhook, and drains and exits 0 on SIGTERM', async () => {
    const receiver = await start('main.js', {
      REDIS_URL: redis.url,
      PF_WEBHOOK_SECRET: SECRET,
      WEBHOOK_QUEUE_PREFIX: uniquePrefix(),
    })
    const { url } = receiver.readyLine as { url: string }
    const res = await postSigned(`${url}/webhooks/pf`, JSON.stringify(makeEvent('session.created')))
    expect(res.status).toBe(200)
    expect(await receiver.stop('SIGTERM')).toBe(0)
    // Structured logs never carry the secret or the signature.
    expect(JSON.stringify(receiver.logs)).not.toContain(SECRET)
  })
  it.each(['full and unread', 'closed by its reader'])(
    'exits 0 on SIGTERM with its log pipe %s (guide: whatever state its stdout is in)',
    async (state) => {
      const receiver = await start('main.js', {
        REDIS_URL: redis.url,
        PF_WEBHOOK_SECRET: SECRET,
        WEBHOOK_QUEUE_PREFIX: uniquePrefix(),
      })
      if (state === 'full and unread') receiver.child.stdout!.pause()
      else receiver.child.stdout!.destroy()
      const { url } = receiver.readyLine as { url: string }
      // Each unknown kind is acknowledged with one warning (~300 bytes): ~120 KiB, more than a pipe holds.
      for (let i = 0; i < 400; i += 1) {
        const res = await postSigned(
          `${url}/webhooks/pf`,
          JSON.stringify(makeEvent(`custom.kind-${'x'.repeat(100)}`)),
        )
        expect(res.status).toBe(200)
      }
      expect(await receiver.stop('SIGTERM')).toBe(0)
    },
  )
})

describe('a frozen Redis (connections open, nothing answered)', () => {
  // A clean drain exits 0; only the hard stop at drain + 5 s exits 1, so the exit code tells which happened.
  it.each(['main.js', 'worker.js'] as const)(
    '%s still drains and exits 0 on SIGTERM (guide: exits within its drain time, whatever the state)',
    async (entry) => {
      if (!redis.isPrivate) return // a shared Redis cannot be frozen by a test
      const service = await start(entry, {
        REDIS_URL: redis.url,
        PF_WEBHOOK_SECRET: SECRET,
        WEBHOOK_QUEUE_PREFIX: uniquePrefix(),
        WEBHOOK_ENQUEUE_TIMEOUT_MS: '500',
        SHUTDOWN_DRAIN_MS: '2000',
      })
      if (entry === 'main.js') {
        const { url } = service.readyLine as { url: string }
        expect(
          (await postSigned(`${url}/webhooks/pf`, JSON.stringify(makeEvent('session.created')))).status,
        ).toBe(200)
      }
      redis.pause()
      try {
        expect(await service.stop('SIGTERM')).toBe(0)
        expect(service.logs.map((line) => line.msg)).toContain('shutdown complete')
      } finally {
        redis.resume()
      }
    },
  )
})

describe('pf-dead-letters command', () => {
  const deadLetters = (args: string[], env: Record<string, string>) =>
    spawnSync(process.execPath, [join(dist, 'dead-letters.js'), ...args], {
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
    })

  it('gives up with one line naming Redis when it does not answer, instead of hanging', async () => {
    const result = deadLetters(['list'], {
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      DEAD_LETTERS_TIMEOUT_MS: '300',
    })
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(
      /^pf-dead-letters: reaching Redis at redis:\/\/127\.0\.0\.1:\d+ \(prefix \{pf\}\) took longer than 300 ms\n$/,
    )
  })

  it('lists quarantined events with their reason; replay hands on what passes validation, whatever its age, and keeps what still fails', async () => {
    const prefix = uniquePrefix()
    const env = { REDIS_URL: redis.url, WEBHOOK_QUEUE_PREFIX: prefix, PF_WEBHOOK_SECRET: SECRET }
    const receiver = await start('main.js', env)
    const dir = mkdtempSync(join(tmpdir(), 'pf-replay-'))
    const handlers = join(dir, 'handlers.cjs')
    writeFileSync(
      handlers,
      `const fs = require('fs')
exports.handlers = { 'purchase.completed': async (event) => fs.appendFileSync(${JSON.stringify(join(dir, 'handled'))}, event.webhookId + '\\n') }\n`,
    )
    await start('worker.js', { ...env, WEBHOOK_HANDLERS: handlers })
    const url = `${(receiver.readyLine as { url: string }).url}/webhooks/pf`
    const handled = () => (existsSync(join(dir, 'handled')) ? readFileSync(join(dir, 'handled'), 'utf8') : '')

    // A delivery of the platform's manual replay, days after the event; an event our schema refuses.
    const stale = makeEvent('purchase.completed', {
      timestamp: new Date(Date.now() - 9 * 24 * 3600_000).toISOString(),
    })
    const invalid = makeEvent('purchase.completed', { data: { purchaseId: 'p_1' } })
    for (const event of [stale, invalid])
      expect((await postSigned(url, JSON.stringify(event))).status).toBe(200)
    const warnings = receiver.logs.filter((line) => String(line.msg).startsWith('event quarantined'))
    expect(warnings.map((line) => [line.level, line.webhookId, line.reason])).toEqual([
      [40, stale.webhookId, 'stale'],
      [40, invalid.webhookId, 'invalid_data'],
    ])

    const listed = deadLetters(['list', '--json'], env)
    expect(listed.status).toBe(0)
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        webhookId: invalid.webhookId,
        reason: 'invalid_data',
        failedReason: expect.stringMatching(/data\.sessionId is required/),
      }),
      expect.objectContaining({ webhookId: stale.webhookId, reason: 'stale', event: 'purchase.completed' }),
    ])
    expect(deadLetters(['list'], env).stdout).toMatch(/reason.*\n(.*\n)*.*invalid_data(.*\n)*.*stale/)

    const kept = deadLetters(['replay', invalid.webhookId], env)
    expect(kept.status).toBe(1)
    expect(kept.stderr).toMatch(
      new RegExp(
        `^pf-dead-letters: ${invalid.webhookId} still fails validation, kept: .*data\\.sessionId is required`,
      ),
    )

    const all = deadLetters(['replay', '--all'], env)
    expect(all.status).toBe(0)
    expect(all.stdout).toMatch(/^replayed 1 dead letter\(s\)\n/)
    expect(all.stdout).toContain(`still invalid, kept: `)
    await waitFor(
      () => handled().includes(stale.webhookId),
      10_000,
      'the worker to handle the replayed event',
    )
    expect(handled()).toBe(`${stale.webhookId}\n`)
    expect(JSON.parse(deadLetters(['list', '--json'], env).stdout)).toEqual([
      expect.objectContaining({ webhookId: invalid.webhookId, reason: 'invalid_data' }),
    ])
    // The platform's retry of the replayed event is still a duplicate.
    expect((await postSigned(url, JSON.stringify(stale))).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(handled()).toBe(`${stale.webhookId}\n`)
  })

  it('says which id it could not find, and where it looked (not "failed to start")', () => {
    const prefix = uniquePrefix()
    const result = deadLetters(['replay', 'wh_missing'], {
      REDIS_URL: redis.url,
      WEBHOOK_QUEUE_PREFIX: prefix,
    })
    expect(result.status).toBe(1)
    expect(result.stderr).toBe(
      `pf-dead-letters: no dead letter with id wh_missing at ${redis.url}, queue prefix ${prefix}\n`,
    )
  })

  it('finding none, names the Redis URL (never its password) and the prefix it looked at', () => {
    const url = new URL(redis.url)
    url.username = 'default'
    url.password = 'not-shown'
    const result = deadLetters(['list'], { REDIS_URL: url.href, DEAD_LETTERS_TIMEOUT_MS: '300' })
    // No such password on this Redis: refused, or (no requirepass) let in; the answer never shows it.
    expect(`${result.stdout}${result.stderr}`).not.toContain('not-shown')
    const plain = deadLetters(['list'], { REDIS_URL: redis.url })
    expect(plain).toMatchObject({ status: 0, stdout: `no dead letters at ${redis.url}, queue prefix {pf}\n` })
  })

  it('lists each dead letter within 100 columns, however long its reason', () => {
    const letters = [
      {
        jobId: '0b6f9f3e-6a7e-4c43-9d55-2f0d7c6a1e11',
        webhookId: 'wh_01HZX3K9M2Q8R7S6T5V4W3X2Y1',
        event: 'purchase.completed',
        reason: 'handler_failed' as const,
        attempts: 10,
        failedReason: `sandbox: ${'a very long reason '.repeat(20)}`,
        failedAt: '2026-11-28T07:43:01.123Z',
      },
    ]
    const text = formatDeadLetterList(letters, 'redis://127.0.0.1:6379, queue prefix {pf}')
    expect(text.split('\n').map((line) => line.length <= 100)).toEqual([true, true, true, true])
    expect(text).toMatch(/^1 dead letter at redis:\/\/127\.0\.0\.1:6379, queue prefix \{pf\}\nwebhookId/)
    expect(text).toContain(
      'wh_01HZX3K9M2Q8R7S6T5V4W3X2Y1  purchase.completed  handler_failed  10        2026-11-28T07:43:01Z',
    )
    expect(text).toMatch(/\n {2}job 0b6f9f3e-6a7e-4c43-9d55-2f0d7c6a1e11: sandbox: a very long .*…$/)
  })
})
