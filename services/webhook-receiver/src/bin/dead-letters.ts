import { Queue } from 'bullmq'
import { runCommand, withTimeout } from '@pf/service-kit'
import { loadDeadLettersConfig } from '../config'
import { describeRedisTarget } from '../redis-target'
import { createRedisConnection } from '../adapters/create-redis-connection'
import { listDeadLetters, replayDeadLetters, type DeadLetter } from '../adapters/dead-letters'
import { WEBHOOK_QUEUE_NAME } from '../adapters/queue-names'

const USAGE = `usage: pf-dead-letters list [--json]
       pf-dead-letters replay <webhookId|jobId>
       pf-dead-letters replay --all
Reads REDIS_URL (or REDIS_SENTINELS, REDIS_CLUSTER_NODES) and WEBHOOK_QUEUE_PREFIX like the receiver and the worker; gives up when Redis does not\nanswer within DEAD_LETTERS_TIMEOUT_MS (default 10000).`

function print(letters: DeadLetter[], json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(letters, null, 2)}\n`)
    return
  }
  if (letters.length === 0) {
    process.stdout.write('no dead letters\n')
    return
  }
  console.table(letters)
}

runCommand('pf-dead-letters', async () => {
  const [command, argument, ...rest] = process.argv.slice(2)
  const json = [argument, ...rest].includes('--json')
  if (command !== 'list' && command !== 'replay') {
    process.stderr.write(`${USAGE}\n`)
    process.exit(2)
  }
  if (command === 'replay' && (argument === undefined || argument === '--json')) {
    process.stderr.write(`pf-dead-letters: say which one to replay, or --all\n${USAGE}\n`)
    process.exit(2)
  }
  const config = loadDeadLettersConfig(process.env)
  const connection = createRedisConnection(config.redis, 'worker', {
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
  })
  connection.on('error', () => {}) // the time-out below says what went wrong, once
  const queue = new Queue(WEBHOOK_QUEUE_NAME, { connection, prefix: config.queuePrefix })
  queue.on('error', () => {})
  const withRedis = <T>(work: Promise<T>) =>
    withTimeout(
      work,
      config.timeoutMs,
      `reaching Redis at ${describeRedisTarget(config.redis)} (prefix ${config.queuePrefix})`,
    )
  try {
    if (command === 'list') {
      print(await withRedis(listDeadLetters(queue)), json)
    } else {
      const replayed = await withRedis(replayDeadLetters(queue, argument === '--all' ? undefined : argument))
      if (replayed.length === 0 && argument !== '--all') throw new Error(`no dead letter with id ${argument}`)
      if (!json) process.stdout.write(`replayed ${replayed.length} dead letter(s)\n`)
      print(replayed, json)
    }
  } finally {
    connection.disconnect()
  }
})
