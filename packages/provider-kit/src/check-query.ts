import {
  createValidator,
  resolveDeliveryMechanism,
  resolveS3Target,
  validateQueryEnvelope,
  type DeliverySpec,
  type QueryEnvelope,
  type ValidationResult,
} from '@pf/schemas'
import type { EndpointDefinition } from './define-endpoint'
import { InvalidEnvelopeError, InvalidParametersError, OutboundUrlError } from './errors'
import { checkOutboundUrl } from './check-outbound-url'

/** S3's limit on an object key, in UTF-8 bytes. */
export const MAX_S3_KEY_BYTES = 1024

/** A query that passed every check: its envelope, and its parameters typed for its endpoint. */
export interface CheckedQuery<P = unknown> {
  /** The endpoint's name. */
  endpoint: string
  envelope: QueryEnvelope
  parameters: P
}

/**
 * Why a query is refused before any work, with no callback (spec, query-processing table, first two rows): an
 * envelope refusal answers 400 `{error}`, a parameters refusal 400 `{error, queryId}`; their statuses are the
 * kit's one table's (`http-status.ts`).
 */
export type QueryRefusal = InvalidEnvelopeError | InvalidParametersError

export type QueryCheck<P = unknown> =
  { ok: true; query: CheckedQuery<P> } | { ok: false; refusal: QueryRefusal }

/** The settings the checks read. */
export interface QueryRules {
  /** Private callback targets allowed (the provider's `outbound.allowPrivate`). */
  allowPrivate: boolean
  /** Ports outbound URLs may use (`outbound.allowedPorts`); unset: any. */
  allowedPorts?: readonly number[]
  /** Object delivery's default bucket and the buckets a query may name (`s3.allowedBuckets`; unset: any). */
  s3: { defaultBucket: string; allowedBuckets?: readonly string[] }
}

const validators = new WeakMap<object, (parameters: unknown) => ValidationResult<unknown>>()

/** The endpoint's parameters validator, compiled once (by @pf/schemas' ajv, draft 2020-12). */
function validatorOf(endpoint: Pick<EndpointDefinition<never, unknown>, 'parameters'>) {
  let validate = validators.get(endpoint.parameters)
  if (!validate) {
    validate = createValidator(endpoint.parameters as never) as (
      parameters: unknown,
    ) => ValidationResult<unknown>
    validators.set(endpoint.parameters, validate)
  }
  return validate
}

/**
 * Every rule a query envelope meets before it is run, in the spec's order: the envelope (`queryId` and
 * `callbackUrl` present; a `queryId` an object key can hold; a `callbackUrl` the provider may reach), then the
 * endpoint's parameters (its JSON Schema, then its own `check`), then, for `pf_s3_sync`, where the object
 * would be written. Pure: no socket, no clock.
 */
export function checkQuery<P>(
  endpoint: Pick<EndpointDefinition<P, unknown>, 'name' | 'parameters' | 'check'>,
  body: unknown,
  rules: QueryRules,
): QueryCheck<P> {
  const checked = validateQueryEnvelope(body)
  if (!checked.ok) return refuseEnvelope(checked.error)
  const envelope = checked.value
  const { queryId } = envelope
  const envelopeProblem = queryIdProblem(queryId) ?? callbackUrlProblem(envelope.callbackUrl, rules)
  if (envelopeProblem) return refuseEnvelope(envelopeProblem)
  const parameters = validatorOf(endpoint)(envelope.parameters ?? {})
  if (!parameters.ok) return refuseParameters(`invalid parameters: ${parameters.error}`, queryId)
  const problem = endpoint.check?.(parameters.value as P)
  if (problem !== undefined) return refuseParameters(`invalid parameters: ${problem}`, queryId)
  if (resolveDeliveryMechanism(envelope.delivery) === 'pf_s3_sync') {
    const where = s3DeliveryProblem(envelope.delivery, queryId, rules.s3)
    if (where) return refuseParameters(`invalid delivery: ${where}`, queryId)
  }
  return { ok: true, query: { endpoint: endpoint.name, envelope, parameters: parameters.value as P } }
}

const refuseEnvelope = (problem: string) =>
  ({ ok: false, refusal: new InvalidEnvelopeError(`invalid query envelope: ${problem}`) }) as const
const refuseParameters = (message: string, queryId: string) =>
  ({ ok: false, refusal: new InvalidParametersError(message, queryId) }) as const

const CONTROL = /\p{Cc}/u
const hasDotSegment = (path: string) => path.split('/').some((segment) => segment === '.' || segment === '..')

/**
 * Why a queryId cannot name an object (`<s3KeyPrefix><queryId>.json`), or undefined: the spec allows any string,
 * so only what a key cannot hold is refused: control characters, a leading `/`, `.`/`..` segments (the SDK
 * resolves them, and the object would land outside its prefix), and more than S3's 1024 bytes.
 */
function queryIdProblem(queryId: string): string | undefined {
  if (CONTROL.test(queryId)) return 'queryId must not hold control characters'
  if (queryId.startsWith('/')) return 'queryId must not start with "/"'
  if (hasDotSegment(queryId)) return 'queryId must not hold "." or ".." path segments'
  if (Buffer.byteLength(`${queryId}.json`) > MAX_S3_KEY_BYTES)
    return `queryId is too long for an object key (${MAX_S3_KEY_BYTES} bytes with ".json")`
  return undefined
}

/** Why the provider may not post to `callbackUrl` (`checkOutboundUrl`), or undefined. */
function callbackUrlProblem(callbackUrl: string, rules: QueryRules): string | undefined {
  try {
    checkOutboundUrl(callbackUrl, 'callbackUrl', rules)
    return undefined
  } catch (error) {
    if (error instanceof OutboundUrlError) return error.message
    throw error
  }
}

/**
 * Why object delivery cannot write where the envelope asks, or undefined: an `s3KeyPrefix` with control
 * characters, a leading `/` or `.`/`..` segments, a bucket outside `allowedBuckets` (when set), a key over
 * 1024 bytes.
 */
function s3DeliveryProblem(
  delivery: DeliverySpec | null | undefined,
  queryId: string,
  { defaultBucket, allowedBuckets }: QueryRules['s3'],
): string | undefined {
  const prefix = delivery?.s3KeyPrefix ?? ''
  if (CONTROL.test(prefix)) return 'delivery.s3KeyPrefix must not hold control characters'
  if (prefix.startsWith('/')) return 'delivery.s3KeyPrefix must not start with "/"'
  if (hasDotSegment(prefix)) return 'delivery.s3KeyPrefix must not hold "." or ".." path segments'
  const { bucket, key } = resolveS3Target(delivery, queryId, defaultBucket)
  if (hasDotSegment(key)) return 'delivery.s3KeyPrefix and queryId make a "." or ".." path segment'
  if (allowedBuckets && !allowedBuckets.includes(bucket))
    return `delivery.s3Bucket "${bucket}" is not allowed`
  if (Buffer.byteLength(key) > MAX_S3_KEY_BYTES)
    return `delivery.s3KeyPrefix and queryId make a key over ${MAX_S3_KEY_BYTES} bytes`
  return undefined
}
