import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Queue } from 'bullmq'
import { startRedis } from '@pf/testkit/redis'
import { createRedisConnection } from '../src/queue/redis/create-redis-connection'
import { quarantineKeys, storeQuarantined } from '../src/queue/quarantine/quarantine'
import { WEBHOOK_QUEUE_NAME } from '../src/queue/queue-names'

const MB = 1_000_000
/** The V8 heap the capped `replay --all` gets (`--max-old-space-size`), in MB. */
const HEAP_CAP_MB = 48
const PREFIX = '{bench-dead-letters}'
const dist = join(__dirname, '..', 'dist')

/** An invalid session.created (email: null) of about 1 MB, as the receiver would quarantine it. */
const body = (i: number) =>
  JSON.stringify({
    event: 'session.created',
    timestamp: new Date().toISOString(),
    webhookId: `wh_bench_dead_letter_${i}`,
    data: { sessionId: 's', userId: 'u', email: null, note: String(i % 10).repeat(MB) },
  })

/**
 * Peak resident memory of the built `pf-dead-letters` (`list`, `show` of the oldest, `replay --all`, which reads
 * each body and hands none on: they stay invalid) with `count` quarantined events of about 1 MB in a private
 * Redis, against the bodies' total: what "one body at a time" (issue 35) buys. `--help` (no Redis) gives the
 * process's own floor. Each command runs with a preload that prints `process.resourceUsage().maxRSS` at exit.
 */
export async function benchDeadLetters(count: number) {
  const redis = await startRedis()
  const connection = createRedisConnection({ kind: 'url', url: redis.url, waitReplicas: 0 }, 'worker')
  const dir = mkdtempSync(join(tmpdir(), 'pf-bench-dead-letters-'))
  const preload = join(dir, 'max-rss.cjs')
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeSync(2, '\\nmaxRSS ' + process.resourceUsage().maxRSS + '\\n'))\n`,
  )
  const queue = new Queue(WEBHOOK_QUEUE_NAME, { connection, prefix: PREFIX })
  const keys = quarantineKeys(queue)
  const options = {
    ttlMs: 3_600_000,
    keep: count,
    maxBytes: Number.MAX_SAFE_INTEGER,
    waitReplicas: 0,
    waitTimeoutMs: 0,
  }
  try {
    let held = 0
    for (let i = 0; i < count; i += 1) {
      const json = body(i)
      held += json.length
      await storeQuarantined(
        connection,
        keys,
        {
          id: `bench-${i}`,
          webhookId: `wh_bench_dead_letter_${i}`,
          event: 'session.created',
          reason: 'invalid_data',
          detail: 'data.email is required',
          receivedAt: new Date().toISOString(),
          json,
        },
        options,
      )
    }
    const usedMb = Number(/used_memory:(\d+)/.exec(await connection.info('memory'))?.[1]) / MB
    /** Runs the built command; its peak RSS in MB, or its failure with its stderr. */
    const run = (args: string[], nodeOptions: string[] = []) => {
      const done = spawnSync(
        process.execPath,
        [...nodeOptions, '--require', preload, join(dist, 'dead-letters.js'), ...args],
        {
          env: {
            PATH: process.env.PATH,
            REDIS_URL: redis.url,
            WEBHOOK_QUEUE_PREFIX: PREFIX,
            DEAD_LETTERS_TIMEOUT_MS: '600000',
          },
          encoding: 'utf8',
          maxBuffer: 1024 * MB,
        },
      )
      if (done.status !== 0) return `exit ${done.status}: ${done.stderr.trim().split('\n').at(-3) ?? ''}`
      return Math.round((Number(/maxRSS (\d+)/.exec(done.stderr)?.[1]) * 1024) / MB)
    }
    const what = `${count} quarantined events of 1 MB (${Math.round(held / MB)} MB of bodies, Redis ${Math.round(usedMb)} MB)`
    const row = (command: string, mb: number | string, target = 'the floor, whatever the count') => ({
      benchmark: `dead-letters ${command}, ${what}`,
      metric: 'peak RSS, MB',
      value: mb,
      target,
    })
    return [
      {
        benchmark: 'dead-letters --help (no Redis: the floor)',
        metric: 'peak RSS, MB',
        value: run(['--help']),
        target: '',
      },
      row('list --json', run(['list', '--json'])),
      row('show <the oldest>', run(['show', 'wh_bench_dead_letter_0', '--json'])),
      row('replay --all (all still invalid)', run(['replay', '--all', '--json'])),
      {
        // A garbage collector in no hurry lets the peak above grow with what was read; a cap on the heap makes
        // it collect: the command then fits in a heap far below the bodies' total, or it would fail.
        ...row(
          `replay --all, heap capped at ${HEAP_CAP_MB} MB`,
          run(['replay', '--all', '--json'], [`--max-old-space-size=${HEAP_CAP_MB}`]),
        ),
        target: 'completes',
      },
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
    await queue.close()
    connection.disconnect()
    await redis.stop()
  }
}
