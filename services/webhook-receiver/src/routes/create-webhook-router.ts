import { Router, type ErrorRequestHandler, type Router as ExpressRouter } from 'express'
import type { Logger } from '@pf/service-kit'
import { createVerifyMiddleware, SigningError, type VerifiedRequest } from '@pf/signing'
import { InvalidEnvelopeError, StoreUnavailableError } from '../errors'
import type { EventStore } from '../core/event-store'
import { receiveEvent } from '../core/receive-event'
import type { ReceiverMetrics, RejectReason } from '../metrics'

export interface WebhookRouterOptions {
  path: string
  secrets: readonly [string, ...string[]]
  maxBodyBytes: number
  store: EventStore
  metrics: ReceiverMetrics
  logger: Logger
}

const reasons: Record<string, RejectReason> = {
  ERR_SIGNATURE_MISMATCH: 'signature',
  ERR_PAYLOAD_TOO_LARGE: 'too_large',
  ERR_INVALID_JSON: 'invalid_json',
  ERR_BODY_READ: 'body_read',
  ERR_INVALID_ENVELOPE: 'invalid_envelope',
  ERR_STORE_UNAVAILABLE: 'store_unavailable',
}

/**
 * `POST {path}`: verify the signature over the raw bytes (spec, receiver rule 1), check the envelope, store it
 * durably with dedup by `webhookId` (rule 3), and only then answer 200 `{received: true}`; processing happens
 * in the worker (rule 2). Unknown kinds are acknowledged and ignored with a warning (rule 4).
 */
export function createWebhookRouter({
  path,
  secrets,
  maxBodyBytes,
  store,
  metrics,
  logger,
}: WebhookRouterOptions): ExpressRouter {
  const [secret, ...additionalSecrets] = secrets
  const router = Router()

  router.post(
    path,
    createVerifyMiddleware({ secret, additionalSecrets, limit: maxBodyBytes }),
    async (req, res) => {
      const { body, signatureSecretIndex } = req as unknown as VerifiedRequest
      const stopTimer = metrics.enqueueSeconds.startTimer()
      const { outcome, envelope } = await receiveEvent(body, store)
      const context = { event: envelope.event, webhookId: envelope.webhookId }
      if (signatureSecretIndex > 0)
        logger.info({ ...context, signatureSecretIndex }, 'signed with a previous secret')
      switch (outcome) {
        case 'ignored':
          metrics.unknownKinds.inc()
          logger.warn(context, 'unknown event kind: acknowledged and ignored')
          break
        case 'duplicate':
          stopTimer()
          metrics.duplicates.inc()
          logger.info(context, 'duplicate delivery: acknowledged, not stored again')
          break
        case 'accepted':
          stopTimer()
          metrics.accepted.inc({ event: envelope.event })
          logger.debug(context, 'event accepted')
          break
      }
      res.json({ received: true })
    },
  )

  const countRejections: ErrorRequestHandler = (error: unknown, _req, _res, next) => {
    const code = (error as { code?: string }).code ?? ''
    const known =
      error instanceof SigningError ||
      error instanceof InvalidEnvelopeError ||
      error instanceof StoreUnavailableError
    metrics.rejected.inc({ reason: known ? (reasons[code] ?? 'other') : 'other' })
    next(error)
  }
  router.use(path, countRejections)
  return router
}
