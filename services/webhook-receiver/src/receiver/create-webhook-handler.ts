import type { IncomingMessage, ServerResponse } from 'node:http'
import { isKnownEventKind } from '@pf/schemas'
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api'
import {
  createLogThrottle,
  createServerErrorLog,
  errorRuleOf,
  extractTraceContext,
  inSpan,
  toErrorAnswer,
  type Logger,
} from '@pf/service-kit'
import { readRawBody, verifyRequest } from '@pf/signing'
import type { EventStore } from '../queue'
import { receiveEvent, type Received } from './receive-event'
import { RECEIVER_ERRORS } from '../http-status'
import type { ReceiverMetrics } from '../metrics'

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

/** Handles one webhook request, and answers it: 200, or the refusal the error table gives. */
export type WebhookHandler = (req: IncomingMessage, res: ServerResponse) => void

const RECEIVED = Buffer.from(JSON.stringify({ received: true }))
const RECEIVED_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'content-length': String(RECEIVED.length),
}
const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * `POST {path}`, on the node:http request and response as they come (the app routes here before Express, whose
 * router and request/response prototypes cost more than the rest of the request). Reads the raw body up to
 * `maxBodyBytes` and verifies `X-PF-Signature` over those exact bytes with every secret in constant time
 * (@pf/signing's `readRawBody` and `verifyRequest`; spec, receiver rule 1), then lets `receiveEvent` check,
 * deduplicate and store (or quarantine) it, and only then answers 200 `{received: true}`; processing happens in
 * the worker (rule 2). Traced: a `webhook.receive` span (under the sender's `traceparent` once the signature is
 * verified, a fresh trace before) with a `webhook.enqueue` child whose context the job carries to the worker. A
 * quarantined event is logged at warn with its reason; a refusal is answered from the
 * receiver's one error table (`toErrorAnswer`), counted under the table's reason, and logged when it is ours.
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

  const handle = async (req: IncomingMessage, res: ServerResponse, state: { verified: boolean }) => {
    const verified = verifyRequest({
      raw: await readRawBody(req, { limit: maxBodyBytes, response: res }),
      headers: req.headers,
      secrets,
    })
    if (!verified.ok) throw verified.refusal
    state.verified = true
    const { raw, secretIndex } = verified
    // Only now is the sender's `traceparent` honoured: a stranger must not steer sampling or join our traces.
    await inSpan(
      'webhook.receive',
      { kind: SpanKind.SERVER, parent: extractTraceContext(req.headers) },
      async (span) => {
        const started = performance.now()
        const received = await inSpan('webhook.enqueue', {}, () => receiveEvent(raw, store, receiveOptions))
        metrics.enqueueSeconds.observe((performance.now() - started) / 1000)
        const { outcome, webhookId, event } = received
        span.setAttributes({
          'pf.webhook_id': webhookId,
          'pf.event': isKnownEventKind(event) ? event : 'unknown',
          'pf.outcome': outcome,
        })
        if (secretIndex > 0)
          logger.info(
            { event, webhookId, signatureSecretIndex: secretIndex },
            'signed with a previous secret',
          )
        if (outcome === 'accepted') countAccepted(event!)
        if (outcome === 'accepted' && logger.isLevelEnabled('debug'))
          logger.debug({ event, webhookId }, 'event accepted')
        if (outcome !== 'accepted') reportHeld(received, span, metrics, logger)
      },
    )
    res.writeHead(200, RECEIVED_HEADERS).end(RECEIVED)
  }

  const refuse = createRefusal(metrics, logger)
  return (req, res) => {
    const state = { verified: false }
    handle(req, res, state).catch((error: unknown) => refuse(req, res, error, state.verified))
  }
}

/**
 * A duplicate or a quarantined event: counted, logged, and a span event with its reason on the request span
 * (spec, receiver rules 3 and 4).
 */
function reportHeld(
  { outcome, webhookId, event, quarantined }: Received,
  span: Span,
  metrics: ReceiverMetrics,
  logger: Logger,
) {
  const context = { event, webhookId }
  if (outcome === 'duplicate') {
    metrics.duplicates.inc()
    span.addEvent('duplicate', { 'pf.reason': 'webhookId already received' })
    logger.info(context, 'duplicate delivery: acknowledged, not stored again')
    return
  }
  const { reason, detail } = quarantined!
  metrics.quarantined.inc({ reason })
  span.addEvent('quarantined', { 'pf.reason': reason })
  // Spec, receiver rule 4: an unknown kind is not processed, with a warning.
  const unknownKind = reason === 'invalid_data' && event !== undefined && !isKnownEventKind(event)
  if (unknownKind) metrics.unknownKinds.inc()
  logger.warn(
    { ...context, reason, detail },
    unknownKind
      ? 'unknown event kind: acknowledged and quarantined, not processed'
      : `event quarantined (${reason}): acknowledged, not processed`,
  )
}

/**
 * A refused webhook's log line, at info: its status and reason, so an operator (and the sandbox's terminal) sees
 * why the platform got a 4xx. Throttled per reason (one line a second, then a count): a flood of forged requests
 * writes a line a second, not one each. Server errors are `createServerErrorLog`'s.
 */
function createRefusalLog(logger: Logger) {
  const throttle = createLogThrottle({ windowMs: 1000 })
  return (reason: string, status: number, error: string) => {
    if (status >= 500) return
    throttle(reason, (suppressed) =>
      logger.info({ status, reason, error, ...(suppressed ? { suppressed } : {}) }, 'webhook refused'),
    )
  }
}

/**
 * Answers a refused webhook from the receiver's one error table (`toErrorAnswer`), counts it under the table's
 * reason and logs it when it is ours (5xx, throttled), as the app's error handler does for every other route.
 */
function createRefusal(metrics: ReceiverMetrics, logger: Logger) {
  const logServerError = createServerErrorLog({ logger })
  const logRefusal = createRefusalLog(logger)
  return (req: IncomingMessage, res: ServerResponse, error: unknown, verified: boolean): void => {
    const reason = errorRuleOf(error, RECEIVER_ERRORS)?.reason ?? 'other'
    metrics.rejected.inc({ reason })
    const answer = toErrorAnswer(error, RECEIVER_ERRORS)
    // Refused before its signature was verified: a fresh trace of its own (the request span holds the rest).
    if (!verified)
      void inSpan('webhook.receive', { kind: SpanKind.SERVER, parent: ROOT_CONTEXT }, (span) => {
        span.setAttributes({ 'pf.refusal': reason, 'http.response.status_code': answer.status })
        span.setStatus({ code: SpanStatusCode.ERROR, message: reason })
      })
    logServerError(error, answer, { method: req.method, path: (req.url ?? '').split('?')[0] as string })
    logRefusal(reason, answer.status, String(answer.body.error ?? ''))
    const body = JSON.stringify(answer.body)
    res
      .writeHead(answer.status, {
        ...answer.headers,
        'content-type': JSON_TYPE,
        'content-length': String(Buffer.byteLength(body)),
      })
      .end(body)
  }
}
