import type { Worker } from 'bullmq'
import type { Logger } from '@pf/service-kit'
import { BULLMQ_VERSION_PINNED } from '../enqueue/create-job-adder'
import type { RedisConnection } from '../redis/create-redis-connection'
import { fusedOrderingScripts } from './fused-ordering-scripts'
import { JOB_FIELDS } from './session-keys'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const installedBullmq = (require('bullmq/package.json') as { version: string }).version

/** The turn BullMQ's move to active took for a job (from `fusedMoveToActive`'s fifth element). */
export interface TakenTurn {
  turn: 'go' | 'late'
  /** The session's newest timestamp handed on (ms). */
  newest: string
  sessionKey: string
  member: string
}

export interface TurnsInBullmq {
  /** The turn taken for a job as it was fetched (asked once per fetch). */
  takenFor(jobId: string): TakenTurn | undefined
  /** The job's handler succeeded: its completion hands the session on. */
  releaseOnCompletion(jobId: string, turn: TakenTurn): void
}

type Exec = (client: Record<string, unknown>, name: string, args: unknown[]) => Promise<unknown>
type Scripted = Record<string, (...args: unknown[]) => Promise<unknown>>

/** The position of moveToFinished's job id and moveToDelayed's fetchNext in their keys and arguments. */
const FINISHED_JOB_ID = 14
const FINISHED_ARGS = 14 + 9
const DELAYED_FETCH_NEXT = 12 + 7

/**
 * Session ordering inside BullMQ's own fetch and completion, one script call per job as a bare worker makes:
 * the worker's moveToActive and moveToFinished calls run `fusedMoveToActive` and `fusedMoveToFinished`
 * (BullMQ's scripts with the turn taken and handed on around them) with BullMQ's own keys and arguments. Only
 * with the BullMQ version the scripts' reading of them was checked against (the enqueue's pin), and when no
 * write waits for replicas (those keep the processor's scripts, each followed by `WAIT`): else undefined, and
 * the processor takes and hands on the turns itself. A retry's move to delayed fetches no next job (the next
 * fetch takes its turn).
 */
export function takeTurnsInBullmq(
  worker: Worker,
  connection: RedisConnection,
  options: { ttlMs: number; parkMs: number; waitReplicas: number; logger: Logger },
): TurnsInBullmq | undefined {
  const { ttlMs, parkMs, waitReplicas, logger } = options
  if (waitReplicas > 0) return undefined
  if (installedBullmq !== BULLMQ_VERSION_PINNED) {
    logger.warn(
      { installed: installedBullmq, pinned: BULLMQ_VERSION_PINNED },
      'BullMQ is not the version the ordering scripts were checked against: taking sessions in turn per job',
    )
    return undefined
  }
  if (!('pfOrderedMoveToActive' in connection)) {
    const fused = fusedOrderingScripts()
    connection.defineCommand('pfOrderedMoveToActive', { numberOfKeys: 11, lua: fused.moveToActive })
    connection.defineCommand('pfOrderedMoveToFinished', { numberOfKeys: 14, lua: fused.moveToFinished })
  }
  // Written once: ioredis would turn the numbers into strings on every call.
  const [ttl, park] = [String(ttlMs), String(parkMs)]
  const taken = new Map<string, TakenTurn>()
  const releasing = new Map<string, TakenTurn>()
  // A turn taken ('go', 'late') is kept for the processor; with 'defer' it takes the turn itself. The session's key
  // part and the member are read from the job's hash (`pfs`, `deid`) unless the reply names the session.
  const noted = (result: unknown) => {
    const turn = Array.isArray(result) ? (result[4] as string | string[] | undefined) : undefined
    const [kind, newest = '', parsedSession] = typeof turn === 'string' ? [turn] : (turn ?? [])
    if (kind !== 'go' && kind !== 'late') return result
    const jobId = String((result as unknown[])[1])
    const hash = (result as unknown[])[0] as string[]
    let sessionKey = parsedSession
    let webhookId = ''
    for (let i = 0; i < hash.length; i += 2) {
      if (hash[i] === 'deid') webhookId = hash[i + 1]!
      else if (hash[i] === JOB_FIELDS.session) sessionKey ??= hash[i + 1]
    }
    taken.set(jobId, {
      turn: kind,
      newest,
      sessionKey: sessionKey ?? '',
      member: `${webhookId} ${jobId}`,
    })
    return result
  }
  const scripts = (worker as unknown as { scripts: { execCommand: Exec } }).scripts
  const execCommand = scripts.execCommand.bind(scripts)
  const scripted = connection as unknown as Scripted
  scripts.execCommand = (client, name, args) => {
    // One array each, which ioredis flattens as it does BullMQ's own.
    if (name === 'moveToActive') return scripted.pfOrderedMoveToActive!(args, ttl, park).then(noted)
    if (name === 'moveToFinished') {
      const jobId = String(args[FINISHED_JOB_ID])
      const turn = releasing.get(jobId)
      if (turn) releasing.delete(jobId)
      // BullMQ's own arguments at their places (an absent one empty), then the turn's.
      const own: unknown[] = new Array(FINISHED_ARGS + 4)
      for (let i = 0; i < FINISHED_ARGS; i += 1) own[i] = args[i] ?? ''
      own[FINISHED_ARGS] = turn?.sessionKey ?? ''
      own[FINISHED_ARGS + 1] = turn?.member ?? ''
      own[FINISHED_ARGS + 2] = ttl
      own[FINISHED_ARGS + 3] = park
      return scripted.pfOrderedMoveToFinished!(own).then(noted)
    }
    if (name === 'moveToDelayed' && args[DELAYED_FETCH_NEXT] === 1) {
      const own = [...args]
      own[DELAYED_FETCH_NEXT] = 0
      own[DELAYED_FETCH_NEXT + 1] = undefined
      return execCommand(client, name, own)
    }
    return execCommand(client, name, args)
  }
  return {
    takenFor(jobId) {
      const turn = taken.get(jobId)
      taken.delete(jobId)
      return turn
    },
    releaseOnCompletion(jobId, turn) {
      releasing.set(jobId, turn)
    },
  }
}
