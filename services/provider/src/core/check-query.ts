import {
  MAX_SEARCH_NAME_WORDS,
  resolveDeliveryMechanism,
  resolveS3Target,
  validateCompaniesParameters,
  validateQueryEnvelope,
  validateSanctionsParameters,
  type CompaniesParameters,
  type DeliverySpec,
  type QueryEnvelope,
  type SanctionsParameters,
  type ValidationResult,
} from '@pf/schemas'
import { InvalidEnvelopeError, InvalidParametersError, OutboundUrlError } from '../errors'
import { checkOutboundUrl } from '../outbound/check-outbound-url'
import type { SearchEndpoint } from './run-query'

/** S3's limit on an object key, in UTF-8 bytes. */
export const MAX_S3_KEY_BYTES = 1024

/** The parameters each search endpoint takes. */
export interface ParametersOf {
  companies: CompaniesParameters
  sanctions: SanctionsParameters
}

/** A query that passed every check: its envelope, and its parameters typed for its endpoint. */
export interface CheckedQuery<E extends SearchEndpoint = SearchEndpoint> {
  endpoint: E
  envelope: QueryEnvelope
  parameters: ParametersOf[E]
}

/**
 * Why a query is refused before any work, with no callback (spec, query-processing table, first two rows): an
 * envelope refusal answers 400 `{error}`, a parameters refusal 400 `{error, queryId}`; their statuses are the
 * provider's one table's (`http-status.ts`).
 */
export type QueryRefusal = InvalidEnvelopeError | InvalidParametersError

export type QueryCheck<E extends SearchEndpoint = SearchEndpoint> =
  { ok: true; query: CheckedQuery<E> } | { ok: false; refusal: QueryRefusal }

/** The settings the checks read. */
export interface QueryRules {
  /** Private callback targets allowed (OUTBOUND_ALLOW_PRIVATE). */
  allowPrivate: boolean
  /** Ports outbound URLs may use (OUTBOUND_ALLOWED_PORTS); unset: any. */
  allowedPorts?: readonly number[]
  /** Object delivery's default bucket and the buckets a query may name (S3_ALLOWED_BUCKETS; unset: any). */
  s3: { defaultBucket: string; allowedBuckets?: readonly string[] }
  /** The list names a screening's `lists` may use (lists and sub-lists in use); unset: any. */
  listNames?: { has(name: string): boolean }
}

const VALIDATE_PARAMETERS: {
  [E in SearchEndpoint]: (parameters: unknown) => ValidationResult<ParametersOf[E]>
} = { companies: validateCompaniesParameters, sanctions: validateSanctionsParameters }

/**
 * Every rule a query envelope meets before it is run, in the spec's order: the envelope (`queryId` and
 * `callbackUrl` present; a `queryId` an object key can hold; a `callbackUrl` the provider may reach), then the
 * endpoint's parameters (types and bounds, at most `MAX_SEARCH_NAME_WORDS` words of `name`, `lists` naming
 * lists in use), then, for
 * `pf_s3_sync`, where the object would be written. Pure: no socket, no clock.
 */
export function checkQuery<E extends SearchEndpoint>(
  endpoint: E,
  body: unknown,
  rules: QueryRules,
): QueryCheck<E> {
  const checked = validateQueryEnvelope(body)
  if (!checked.ok) return refuseEnvelope(checked.error)
  const envelope = checked.value
  const { queryId } = envelope
  const envelopeProblem = queryIdProblem(queryId) ?? callbackUrlProblem(envelope.callbackUrl, rules)
  if (envelopeProblem) return refuseEnvelope(envelopeProblem)
  const parameters = VALIDATE_PARAMETERS[endpoint](envelope.parameters ?? {})
  if (!parameters.ok) return refuseParameters(`invalid parameters: ${parameters.error}`, queryId)
  const { name } = parameters.value
  if (name && name.trim().split(/\s+/).length > MAX_SEARCH_NAME_WORDS)
    return refuseParameters(`invalid parameters: name has more than ${MAX_SEARCH_NAME_WORDS} words`, queryId)
  const unknown = unknownLists(parameters.value, rules.listNames)
  if (unknown.length > 0)
    return refuseParameters(
      `invalid parameters: lists names no list in use: ${unknown.map((l) => JSON.stringify(l)).join(', ')} (GET /api/lists shows them)`,
      queryId,
    )
  if (resolveDeliveryMechanism(envelope.delivery) === 'pf_s3_sync') {
    const problem = s3DeliveryProblem(envelope.delivery, queryId, rules.s3)
    if (problem) return refuseParameters(`invalid delivery: ${problem}`, queryId)
  }
  return { ok: true, query: { endpoint, envelope, parameters: parameters.value } }
}

/** The names of a screening's `lists` that are no list or sub-list in use (each once). */
function unknownLists(parameters: object, known: QueryRules['listNames']): string[] {
  const { lists } = parameters as { lists?: readonly string[] | null }
  if (!known || !lists) return []
  return [...new Set(lists.filter((name) => !known.has(name)))]
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
