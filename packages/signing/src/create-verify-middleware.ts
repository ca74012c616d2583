import type { IncomingMessage, ServerResponse } from 'node:http'
import { DEFAULT_BODY_LIMIT } from './constants'
import { BodyAlreadyConsumedError } from './errors'
import { findMatchingSecret } from './find-matching-secret'
import { parseJsonBody } from './parse-json-body'
import { readRawBody } from './read-raw-body'
import type { SignatureScheme } from './signature-scheme'
import { verifyRequest } from './verify-request'

export interface VerifyMiddlewareOptions {
  /** The current secret. */
  secret: string
  /** Older secrets still accepted during a rotation. */
  additionalSecrets?: readonly string[]
  scheme?: SignatureScheme
  /** Largest raw body accepted, in bytes; past it the middleware fails with `PayloadTooLargeError`. Default 1 MiB. */
  limit?: number
}

/** What the middleware leaves on the request once the signature is verified. */
export interface VerifiedRequest extends IncomingMessage {
  /** The parsed JSON body. */
  body: unknown
  /** The exact bytes that were verified. */
  rawBody: Buffer
  /** Index of the matching secret: 0 the current one, 1.. the `additionalSecrets`. */
  signatureSecretIndex: number
}

type Next = (error?: unknown) => void

/**
 * Express (or plain `node:http`) middleware around `readRawBody`, `verifyRequest` and `parseJsonBody`: reads the
 * raw body itself, verifies `X-PF-Signature` over those exact bytes, and only then parses JSON. Failures go to
 * `next(error)` as `SigningError`s with a stable `code`; the service's own table says how to answer each.
 *
 * @example
 * app.post('/webhooks/pf', createVerifyMiddleware({ secret, additionalSecrets: [previous] }), (req, res) => {
 *   const { body, signatureSecretIndex } = req as VerifiedRequest
 * })
 */
export function createVerifyMiddleware({
  secret,
  additionalSecrets = [],
  scheme = 'webhook',
  limit = DEFAULT_BODY_LIMIT,
}: VerifyMiddlewareOptions) {
  const secrets = [secret, ...additionalSecrets]
  // Fail at wiring time, not on the first request.
  findMatchingSecret({ scheme, secrets, body: '', signature: undefined })

  return function verifySignature(req: IncomingMessage, res: ServerResponse, next: Next): void {
    // body-parser marks requests it has read with `_body`; a drained stream would otherwise be waited on for
    // data that never comes.
    if ((req as { _body?: unknown })._body === true || req.readableEnded) {
      next(
        new BodyAlreadyConsumedError(
          'request body was already read by another middleware: mount the signature check before any body parser',
        ),
      )
      return
    }
    readRawBody(req, { limit, response: res }).then(
      (raw) => next(verifyAndParse(req, raw)),
      (error: unknown) => next(error),
    )
  }

  function verifyAndParse(req: IncomingMessage, raw: Buffer): undefined | Error {
    const verified = verifyRequest({ raw, headers: req.headers, secrets, scheme })
    if (!verified.ok) return verified.refusal
    try {
      const { body } = parseJsonBody(raw)
      Object.assign(req, { body, rawBody: raw, signatureSecretIndex: verified.secretIndex })
      return undefined
    } catch (error) {
      return error as Error
    }
  }
}
