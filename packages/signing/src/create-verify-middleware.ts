import type { IncomingMessage, ServerResponse } from 'node:http'
import getRawBody from 'raw-body'
import { DEFAULT_BODY_LIMIT, SIGNATURE_HEADER } from './constants'
import {
  BodyAlreadyConsumedError,
  BodyReadError,
  InvalidJsonError,
  PayloadTooLargeError,
  SignatureMismatchError,
} from './errors'
import { findMatchingSecret } from './find-matching-secret'
import type { SignatureScheme } from './signature-scheme'

export interface VerifyMiddlewareOptions {
  /** The current secret. */
  secret: string
  /** Older secrets still accepted during a rotation. */
  additionalSecrets?: readonly string[]
  scheme?: SignatureScheme
  /** Largest raw body accepted, in bytes; past it the middleware fails with 413. Default 1 MiB. */
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

const UTF8_BOM = '\uFEFF'

/**
 * Express (or plain `node:http`) middleware that reads the raw body itself, verifies `X-PF-Signature` over
 * those exact bytes, and only then parses JSON. Failures go to `next(error)` as `SigningError`s carrying
 * `statusCode` (401, 413, 400, or 500 when a body parser already consumed the stream).
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

  return function verifySignature(req: IncomingMessage, _res: ServerResponse, next: Next): void {
    // body-parser marks requests it has read with `_body`; a drained stream would otherwise make
    // raw-body wait for data that never comes.
    if ((req as { _body?: unknown })._body === true || req.readableEnded) {
      next(
        new BodyAlreadyConsumedError(
          'request body was already read by another middleware: mount the signature check before any body parser',
        ),
      )
      return
    }
    getRawBody(req, { limit, length: req.headers['content-length'] }).then(
      (raw) => next(verifyAndParse(req, raw)),
      (error: unknown) => next(toReadError(error, limit)),
    )
  }

  function verifyAndParse(req: IncomingMessage, raw: Buffer): undefined | Error {
    const header = req.headers[SIGNATURE_HEADER.toLowerCase()]
    const signature = typeof header === 'string' ? header : undefined
    if (signature === undefined) return new SignatureMismatchError(`missing ${SIGNATURE_HEADER} header`)
    const index = findMatchingSecret({ scheme, secrets, body: raw, signature })
    if (index === -1) return new SignatureMismatchError(`invalid ${SIGNATURE_HEADER} signature`)
    let body: unknown
    try {
      const text = raw.toString('utf8')
      body = JSON.parse(text.startsWith(UTF8_BOM) ? text.slice(1) : text)
    } catch (cause) {
      return new InvalidJsonError('request body is not valid JSON', { cause })
    }
    Object.assign(req, { body, rawBody: raw, signatureSecretIndex: index })
    return undefined
  }
}

function toReadError(error: unknown, limit: number): Error {
  const type = (error as { type?: string }).type
  if (type === 'entity.too.large') {
    return new PayloadTooLargeError(`request body is larger than ${limit} bytes`, { cause: error })
  }
  if (type === 'stream.not.readable') {
    return new BodyAlreadyConsumedError('request body stream is not readable', { cause: error })
  }
  return new BodyReadError('request body could not be read', { cause: error })
}
