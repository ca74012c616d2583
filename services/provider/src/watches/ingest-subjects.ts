import type { Readable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import type { Pool } from 'pg'
import { createValidator, WatchSubjectSchema, type WatchSubject } from '@pf/schemas'
import { BodyShapeError, splitJsonValues } from './split-json-values'
import { upsertSubjects } from './upsert-subjects'

/** Subjects upserted per transaction: each batch committed stays, whatever happens to the rest of the body. */
export const SUBJECT_BATCH = 5000
/** Rejected subjects named in an answer (the count says how many in all). */
export const MAX_REJECTED_LISTED = 100
/** Longest text of one subject (characters): its fields' bounds leave it far below. */
const MAX_SUBJECT_CHARS = 16 * 1024

const validateSubject = createValidator(WatchSubjectSchema)

export interface IngestOutcome {
  accepted: number
  rejected: { index: number; error: string }[]
  rejectedCount: number
  /** Why the body stopped being read (too large, too slow, not an array, cut): the batches before stay. */
  stopped?: { status: 400 | 408 | 413; error: string }
}

/**
 * Reads a subjects body as it arrives (a JSON array or JSON Lines), checks each subject, and upserts them in
 * batches of `SUBJECT_BATCH`, each committed: memory holds one batch, and a body cut mid-way keeps what was
 * committed (a retry upserts the same subjects again, changing nothing). Past `maxBytes` or `timeoutMs` the
 * read stops, and the outcome says why.
 */
export async function ingestSubjects(
  pool: Pool,
  watchId: string,
  body: Readable,
  { format, maxBytes, timeoutMs }: { format: 'array' | 'lines'; maxBytes: number; timeoutMs: number },
): Promise<IngestOutcome> {
  const outcome: IngestOutcome = { accepted: 0, rejected: [], rejectedCount: 0 }
  const reject = (index: number, error: string) => {
    outcome.rejectedCount += 1
    if (outcome.rejected.length < MAX_REJECTED_LISTED) outcome.rejected.push({ index, error })
  }
  let batch: WatchSubject[] = []
  const flush = async () => {
    if (batch.length === 0) return
    const subjects = batch
    batch = []
    await upsertSubjects(pool, watchId, subjects)
    outcome.accepted += subjects.length
  }
  const limits = boundedText(body, maxBytes, timeoutMs)
  try {
    for await (const piece of splitJsonValues(limits.chunks, { format, maxValueChars: MAX_SUBJECT_CHARS })) {
      if (piece.error !== undefined || piece.text === undefined) {
        reject(piece.index, piece.error ?? 'empty')
        continue
      }
      const parsed = parseJson(piece.text)
      if (!parsed.ok) {
        reject(piece.index, 'not valid JSON')
        continue
      }
      const checked = validateSubject(parsed.value)
      if (!checked.ok) {
        reject(piece.index, checked.error)
        continue
      }
      batch.push(checked.value)
      if (batch.length >= SUBJECT_BATCH) await flush()
    }
    await flush()
  } catch (error) {
    const stopped = limits.stopped() ?? (error instanceof BodyShapeError ? error.message : undefined)
    if (stopped === undefined) throw error
    outcome.stopped = { status: limits.status() ?? 400, error: stopped }
  } finally {
    limits.dispose()
  }
  return outcome
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch {
    return { ok: false }
  }
}

/**
 * The body as text, stopped past `maxBytes` (413: reading stops, the connection is closed after the answer) or
 * `timeoutMs` (408: the connection is closed at once, a slow sender gets no answer), or when the client goes
 * away (400).
 */
function boundedText(body: Readable, maxBytes: number, timeoutMs: number) {
  let why: { status: 400 | 408 | 413; error: string } | undefined
  const timer = setTimeout(() => {
    why ??= { status: 408, error: `subjects not received within ${timeoutMs} ms` }
    body.destroy(new Error(why.error))
  }, timeoutMs)
  async function* chunks(): AsyncGenerator<string> {
    const decoder = new StringDecoder('utf8')
    let bytes = 0
    try {
      for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
        bytes += chunk.length
        if (bytes > maxBytes) {
          why ??= { status: 413, error: `subjects body larger than ${maxBytes} bytes` }
          break
        }
        yield decoder.write(chunk)
      }
    } catch (error) {
      why ??= { status: 400, error: 'the request body was cut off' }
      throw error
    }
    if (why) throw new Error(why.error)
    yield decoder.end()
  }
  return {
    chunks: chunks(),
    stopped: () => why?.error,
    status: () => why?.status,
    dispose: () => clearTimeout(timer),
  }
}
