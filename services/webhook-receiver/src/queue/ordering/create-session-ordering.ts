import { DelayedError, type Job } from 'bullmq'
import type { Logger } from '@pf/service-kit'
import type { RedisConnection } from '../redis/create-redis-connection'
import { isUnrecoverable } from '../consume/is-unrecoverable'
import { unconfirmedWrite } from '../enqueue/unconfirmed-write'
import { ACQUIRE, DEAD, PARKED, RELEASE } from './ordering-scripts'
import { sessionKeys } from './session-keys'
import { sessionOf, type EventPlace } from './session-of'
import type { TurnsInBullmq } from './take-turns-in-bullmq'

/** What a handler learns of its event's place: `false`, or it is older than one already handed on. */
export type Lateness = false | { newestTimestamp: string }

/** The BullMQ queue keys the scripts touch (`worker.keys`). */
export type OrderingQueueKeys = Record<
  'delayed' | 'wait' | 'paused' | 'meta' | 'active' | 'marker' | 'events' | 'completed' | 'failed',
  string
>

export interface SessionOrderingOptions {
  connection: RedisConnection
  /** The queue's key prefix with its name (`{pf}:webhooks:`). */
  queueKeyPrefix: string
  /** The queue's keys, once the worker has them. */
  queueKeys: () => OrderingQueueKeys
  /** How long a session's state outlives its last write: the dedup TTL. */
  ttlMs: number
  /**
   * How long a job waiting for its session sleeps in delayed unless the event before it wakes it: the time a
   * killed worker's job takes to come back, so that a turn lost with Redis (a failover) still comes.
   */
  parkMs: number
  /** Replicas each write of the state waits for (`WAIT`), as the enqueue does. */
  waitReplicas: number
  waitTimeoutMs: number
  logger: Logger
  /** The turns BullMQ's fetch took (`takeTurnsInBullmq`), once the worker exists; else each is taken here. */
  turns?: () => TurnsInBullmq | undefined
}

/** Runs a job's handler in its session's turn; a job whose turn it is not is parked (`DelayedError`). */
export type InTurn = (job: Job, token: string, event: unknown, handle: Handle) => Promise<void>

type Handle = (late: Lateness) => Promise<void>

/** What the scripts need of an event's place. */
type TurnPlace = Pick<EventPlace, 'sessionId' | 'sessionKey' | 'member'>

type Scripted = RedisConnection & Record<string, (...args: unknown[]) => Promise<unknown>>

const COMMANDS = {
  pfOrderAcquire: ACQUIRE,
  pfOrderParked: PARKED,
  pfOrderRelease: RELEASE,
  pfOrderDead: DEAD,
}

/**
 * Per-session ordering over BullMQ (whose open edition has no groups): the receiver registers each event in its
 * session's pending set, atomically with the enqueue; here a job runs only as its session's first pending event
 * or its turn holder already (`ACQUIRE`), else it waits in delayed until the event before it finishes and promotes it
 * (`RELEASE`), or dead-letters (`DEAD`, which notes on the dead letter what went on without it). A failing event
 * keeps its place, so its session waits through its retries. Every write waits for the replicas the enqueue
 * waits for.
 */
export function createSessionOrdering(options: SessionOrderingOptions): InTurn {
  const { connection, queueKeyPrefix, ttlMs, parkMs, waitReplicas, waitTimeoutMs, logger } = options
  const redis = connection as Scripted
  for (const [name, lua] of Object.entries(COMMANDS))
    if (!(name in connection)) connection.defineCommand(name, { numberOfKeys: 10, lua })

  const run = async (
    command: keyof typeof COMMANDS,
    place: TurnPlace,
    jobId: string,
    ...extra: unknown[]
  ) => {
    const keys = sessionKeys(queueKeyPrefix, place.sessionKey)
    const q = options.queueKeys()
    const args = [
      keys.pending,
      q.delayed,
      q.wait,
      q.paused,
      q.meta,
      q.active,
      q.marker,
      q.events,
      q.completed,
      q.failed,
      queueKeyPrefix,
      ttlMs,
      jobId,
      place.member,
      ...extra,
    ]
    if (waitReplicas === 0) return redis[command]!(...args)
    const pipeline = connection.pipeline() as unknown as Record<string, (...a: unknown[]) => unknown> & {
      exec(): Promise<[Error | null, unknown][] | null>
    }
    pipeline[command]!(...args)
    pipeline.wait!(waitReplicas, waitTimeoutMs)
    const [result, waited] = (await pipeline.exec()) ?? []
    const error = result?.[0] ?? waited?.[0] ?? unconfirmedWrite(waited?.[1], waitReplicas)
    if (error) throw error
    return result?.[1]
  }

  /** A handler's failure in its turn, rethrown: a last one first leaves the session (DEAD), noted on the dead letter. */
  const failInTurn = async (job: Job, token: string, place: TurnPlace, error: unknown): Promise<never> => {
    if (isUnrecoverable(error) || job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
      const note = await run('pfOrderDead', place, job.id ?? '', token).catch((cause: unknown) => {
        logger.warn(
          { err: cause, jobId: job.id, sessionId: place.sessionId },
          'could not release the session of a dead letter',
        )
        return ''
      })
      if (error instanceof Error) error.message += String(note)
    }
    // Retried: the event keeps its place and its turn, and its session waits for it.
    throw error
  }

  return async (job, token, event, handle) => {
    const jobId = job.id ?? ''
    const turns = options.turns?.()
    const taken = turns?.takenFor(jobId)
    if (turns && taken) {
      // Taken by BullMQ's move to active; handed on by its move to completed (`takeTurnsInBullmq`). No await of
      // its own: this path runs for every job, and each async step is an allocation the worker's profile counts.
      return handle(lateness(taken.turn, taken.newest)).then(
        () => turns.releaseOnCompletion(jobId, taken),
        (error: unknown) =>
          failInTurn(
            job,
            token,
            { sessionId: taken.sessionKey, sessionKey: taken.sessionKey, member: taken.member },
            error,
          ),
      )
    }
    const place = sessionOf(event, jobId)
    if (!place) return handle(false)
    const [turn, newest] = (await run('pfOrderAcquire', place, jobId, place.score, token)) as [
      string,
      string?,
    ]
    if (turn === 'wait') {
      await job.moveToDelayed(Date.now() + parkMs, token)
      await run('pfOrderParked', place, jobId)
      throw new DelayedError()
    }
    await handle(lateness(turn, newest)).catch((error: unknown) => failInTurn(job, token, place, error))
    // Sent on the worker's connection before BullMQ's completion of the job, so Redis runs it first; not awaited
    // (the job's slot is free a round trip sooner) unless it waits for replicas, whose pipeline may load its
    // script first. The handler ran: a failure here is logged, never retried (that would run the handler twice);
    // the next event then comes after parkMs.
    const released = run('pfOrderRelease', place, jobId, token).catch((cause: unknown) =>
      logger.warn({ err: cause, jobId, sessionId: place.sessionId }, 'could not hand the session on'),
    )
    if (waitReplicas > 0) await released
  }
}

/** `late` from a turn: false, or the session's newest timestamp handed on. */
function lateness(turn: string, newest: string | undefined): Lateness {
  return turn === 'late' ? { newestTimestamp: new Date(Number(newest)).toISOString() } : false
}
