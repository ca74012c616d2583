import type { IncomingMessage, ServerResponse } from 'node:http'
import { isKnownEventKind } from '@pf/schemas'
import type { Logger } from '@pf/service-kit'
import {
  BodyReadError,
  findMatchingSecret,
  PayloadTooLargeError,
  SIGNATURE_HEADER,
  SignatureMismatchError,
} from '@pf/signing'
import type { EventStore } from '../core/event-store'
import { receiveEvent } from '../core/receive-event'
import type { ReceiverMetrics, RejectReason } from '../metrics'

export interface WebhookHandlerOptions {
  secrets: readonly [string, ...string[]]
  maxBodyBytes: number
  /** `WEBHOOK_MAX_AGE_SECONDS`: an older signed `timestamp` is quarantined as `stale`. */
  maxAgeSeconds: number
  /** The clock, in ms since the epoch. */
  clock?: () => number
  store: EventStore
  metrics: ReceiverMetrics
  logger: Logger
}

/** Handles one webhook request; a refusal goes to `refuse(error)` (the app's error handler answers it). */
export type WebhookHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  refuse: (error: unknown) => void,
) => void

const RECEIVED = Buffer.from(JSON.stringify({ received: true }))
const RECEIVED_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'content-length': String(RECEIVED.length),
}
const SIGNATURE = SIGNATURE_HEADER.toLowerCase()

const REASONS: Record<string, RejectReason> = {
  ERR_SIGNATURE_MISMATCH: 'signature',
  ERR_PAYLOAD_TOO_LARGE: 'too_large',
  ERR_INVALID_JSON: 'invalid_json',
  ERR_BODY_READ: 'body_read',
  ERR_INVALID_ENVELOPE: 'invalid_envelope',
  ERR_STORE_UNAVAILABLE: 'store_unavailable',
}

/**
 * `POST {path}`, on the node:http request and response as they come (the app routes here before Express, whose
 * router and request/response prototypes cost more than the rest of the request). Reads the raw body up to
 * `maxBodyBytes`, verifies `X-PF-Signature` over those exact bytes with every secret in constant time (spec,
 * receiver rule 1), then lets `receiveEvent` check, deduplicate and store (or quarantine) it, and only then
 * answers 200 `{received: true}`; processing happens in the worker (rule 2). A quarantined event is logged at
 * warn with its reason; every refusal is counted by reason and handed to the app's one error handler.
 */
export function createWebhookHandler({
  secrets,
  maxBodyBytes,
  maxAgeSeconds,
  clock = Date.now,
  store,
  metrics,
  logger,
}: WebhookHandlerOptions): WebhookHandler {
  const receiveOptions = { maxAgeMs: maxAgeSeconds * 1000, now: clock }
  const accepted = new Map<string, { inc(): void }>()
  const countAccepted = (kind: string) => {
    let counter = accepted.get(kind)
    if (!counter) accepted.set(kind, (counter = metrics.accepted.labels({ event: kind })))
    counter.inc()
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req, res, maxBodyBytes)
    const signature = req.headers[SIGNATURE]
    if (typeof signature !== 'string') throw new SignatureMismatchError(`missing ${SIGNATURE_HEADER} header`)
    const secretIndex = findMatchingSecret({ scheme: 'webhook', secrets, body: raw, signature })
    if (secretIndex === -1) throw new SignatureMismatchError(`invalid ${SIGNATURE_HEADER} signature`)
    const stopTimer = metrics.enqueueSeconds.startTimer()
    const { outcome, webhookId, event, quarantined } = await receiveEvent(raw, store, receiveOptions)
    const context = { event, webhookId }
    if (secretIndex > 0)
      logger.info({ ...context, signatureSecretIndex: secretIndex }, 'signed with a previous secret')
    switch (outcome) {
      case 'quarantined': {
        stopTimer()
        const { reason, detail } = quarantined!
        metrics.quarantined.inc({ reason })
        // Spec, receiver rule 4: an unknown kind is not processed, with a warning.
        const unknownKind = reason === 'invalid_data' && event !== undefined && !isKnownEventKind(event)
        if (unknownKind) metrics.unknownKinds.inc()
        logger.warn(
          { ...context, reason, detail },
          unknownKind
            ? 'unknown event kind: acknowledged and quarantined, not processed'
            : `event quarantined (${reason}): acknowledged, not processed`,
        )
        break
      }
      case 'duplicate':
        stopTimer()
        metrics.duplicates.inc()
        logger.info(context, 'duplicate delivery: acknowledged, not stored again')
        break
      case 'accepted':
        stopTimer()
        countAccepted(event!)
        if (logger.isLevelEnabled('debug')) logger.debug(context, 'event accepted')
        break
    }
    res.writeHead(200, RECEIVED_HEADERS).end(RECEIVED)
  }

  return (req, res, refuse) => {
    handle(req, res).catch((error: unknown) => {
      metrics.rejected.inc({ reason: REASONS[(error as { code?: string }).code ?? ''] ?? 'other' })
      refuse(error)
    })
  }
}

/**
 * The request body, at most `limit` bytes: a larger `Content-Length` is refused before reading, a longer
 * stream as soon as it passes the limit; the rest is discarded and the connection closed after the answer.
 */
function readBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => {
      res.shouldKeepAlive = false
      req.resume()
      reject(new PayloadTooLargeError(`request body is larger than ${limit} bytes`))
    }
    if (Number(req.headers['content-length']) > limit) return tooLarge()
    const chunks: Buffer[] = []
    let length = 0
    const onData = (chunk: Buffer) => {
      length += chunk.length
      if (length <= limit) chunks.push(chunk)
      else {
        req.off('data', onData)
        tooLarge()
      }
    }
    req.on('data', onData)
    req.once('end', () => {
      if (length <= limit)
        resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length))
    })
    req.once('error', (cause) => reject(new BodyReadError('request body could not be read', { cause })))
    req.once('aborted', () =>
      reject(new BodyReadError('request body could not be read: the client went away')),
    )
  })
}
