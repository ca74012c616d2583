import { Queue } from 'bullmq'
import { runMain } from '@pf/service-kit'
import { loadQueueConfig } from './config'
import { createWorkerConnection } from './queue/create-redis-connection'
import { listDeadLetters, replayDeadLetters, type DeadLetter } from './queue/dead-letters'
import { WEBHOOK_QUEUE_NAME } from './queue/queue-names'

const USAGE = `usage: pf-dead-letters list [--json]
       pf-dead-letters replay <webhookId|jobId>
       pf-dead-letters replay --all
Reads REDIS_URL and WEBHOOK_QUEUE_PREFIX like the receiver and the worker.`

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

runMain('pf-dead-letters', async () => {
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
  const config = loadQueueConfig(process.env)
  const connection = createWorkerConnection(config.redisUrl, { maxRetriesPerRequest: 1 })
  const queue = new Queue(WEBHOOK_QUEUE_NAME, { connection, prefix: config.queuePrefix })
  try {
    if (command === 'list') {
      print(await listDeadLetters(queue), json)
    } else {
      const replayed = await replayDeadLetters(queue, argument === '--all' ? undefined : argument)
      if (replayed.length === 0 && argument !== '--all') throw new Error(`no dead letter with id ${argument}`)
      if (!json) process.stdout.write(`replayed ${replayed.length} dead letter(s)\n`)
      print(replayed, json)
    }
  } finally {
    await queue.close()
    connection.disconnect()
  }
})
