import { inSpan, withTimeout } from '@pf/service-kit'
import type { DeadLettersConfig } from '../config'
import { checkQueueLayout, describeRedisTarget, openDeadLetterQueue } from '../queue'
import { listDeadLetters, replayDeadLetters, type DeadLetter, type StillInvalid } from './dead-letters'
import { formatDeadLetterList, formatDeadLetterRows } from './format-dead-letter-list'
import { formatDeadLetter, showDeadLetter } from './show-dead-letter'

const USAGE = `usage: pf-dead-letters list [--json]
       pf-dead-letters show <webhookId|jobId> [--json]
       pf-dead-letters replay <webhookId|jobId> [--json]
       pf-dead-letters replay --all [--json]
Lists, and hands back to the worker, the events no handler has taken: jobs whose handler failed for good
(reason handler_failed) and events quarantined at the door (invalid_data, stale, future). replay validates each
again and hands on what passes, whatever its age; what still fails stays, with its errors. show prints one whole:
the event, the reason (the handler's error and stack, or the validation errors), the attempts and the times.
Reads REDIS_URL (or REDIS_SENTINELS, REDIS_CLUSTER_NODES), WEBHOOK_QUEUE_PREFIX, QUEUE_SHARDS (every shard's
queue; QUEUE_RESHARD_FROM) and the WEBHOOK_JOB_* / WEBHOOK_KEEP_* settings like the receiver and the worker; gives
up when Redis does not answer within DEAD_LETTERS_TIMEOUT_MS (default 3000). From the repository's root, pnpm
dead-letters reads the running sandbox's queue.`

function print(letters: DeadLetter[], json: boolean, where: string): void {
  if (json) process.stdout.write(`${JSON.stringify(letters, null, 2)}\n`)
  else process.stdout.write(`${formatDeadLetterList(letters, where)}\n`)
}

/** Where the command looked, for people: the Redis URL without its password (or the nodes), and the prefix. */
function whereOf({ redis, queuePrefix }: DeadLettersConfig): string {
  const at =
    redis.kind === 'url' ? redis.url.replace(/^([a-z]+:\/\/)[^@/]*@/i, '$1') : describeRedisTarget(redis)
  return `${at}, queue prefix ${queuePrefix}`
}

function printReplay({ replayed, stillInvalid }: { replayed: DeadLetter[]; stillInvalid: StillInvalid[] }) {
  process.stdout.write(`replayed ${replayed.length} dead letter(s)\n`)
  if (replayed.length > 0) process.stdout.write(`${formatDeadLetterRows(replayed).join('\n')}\n`)
  for (const letter of stillInvalid)
    process.stdout.write(`still invalid, kept: ${letter.jobId} (${letter.webhookId}): ${letter.errors}\n`)
}

/**
 * `pf-dead-letters list|show|replay`, from its arguments and the settings `loadConfig` reads; prints what it found or
 * did, and exits 2 with the usage for a wrong command line.
 */
export async function deadLettersCommand(args: string[], loadConfig: () => DeadLettersConfig): Promise<void> {
  const [command, argument, ...rest] = args
  const json = [argument, ...rest].includes('--json')
  // Asked for anywhere (`list --help`), help is printed, never the command run.
  if (command === 'help' || args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  if (command !== 'list' && command !== 'replay' && command !== 'show') {
    process.stderr.write(`${USAGE}\n`)
    process.exit(2)
  }
  if (command !== 'list' && (argument === undefined || argument === '--json')) {
    const which = command === 'replay' ? 'replay, or --all' : 'show'
    process.stderr.write(`pf-dead-letters: say which one to ${which}\n${USAGE}\n`)
    process.exit(2)
  }
  const config = loadConfig()
  const { queues, close } = openDeadLetterQueue(config)
  const withRedis = <T>(work: Promise<T>) =>
    withTimeout(
      work,
      config.timeoutMs,
      `reaching Redis at ${describeRedisTarget(config.redis)} (prefix ${config.queuePrefix})`,
    )
  try {
    // The shards it reads are those Redis records (a start with another QUEUE_SHARDS is refused, as the services').
    await withRedis(
      checkQueueLayout(config.redis, { ...config, prefix: config.queuePrefix }, config.timeoutMs + 1000),
    )
    if (command === 'list') {
      print(await withRedis(listDeadLetters(queues)), json, whereOf(config))
    } else if (command === 'show') {
      const detail = await withRedis(showDeadLetter(queues, argument as string))
      if (!detail) throw new Error(`no dead letter with id ${argument} at ${whereOf(config)}`)
      process.stdout.write(`${json ? JSON.stringify(detail, null, 2) : formatDeadLetter(detail)}\n`)
    } else {
      const one = argument === '--all' ? undefined : argument
      // A failed job keeps its data, so its next attempt continues the receiver's trace; a released quarantined
      // event carries this span's.
      const report = await inSpan(
        'dead-letters.replay',
        { attributes: { 'pf.replay': one ?? '--all' } },
        (span) =>
          withRedis(replayDeadLetters(queues, one, config)).then((report) => {
            span.setAttributes({
              'pf.replayed': report.replayed.length,
              'pf.still_invalid': report.stillInvalid.length,
            })
            return report
          }),
      )
      if (one !== undefined && report.replayed.length === 0) {
        const [invalid] = report.stillInvalid
        throw new Error(
          invalid
            ? `${one} still fails validation, kept: ${invalid.errors}`
            : `no dead letter with id ${one} at ${whereOf(config)}`,
        )
      }
      if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
      else printReplay(report)
    }
  } finally {
    close()
  }
}
