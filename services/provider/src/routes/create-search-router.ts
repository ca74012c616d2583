import { Router, type Request } from 'express'
import {
  MAX_SEARCH_NAME_WORDS,
  resolveDeliveryMechanism,
  validateCompaniesParameters,
  validateQueryEnvelope,
  validateSanctionsParameters,
  type QueryEnvelope,
  type ValidationResult,
} from '@pf/schemas'
import { InvalidEnvelopeError, InvalidParametersError, OutboundUrlError } from '../errors'
import { checkOutboundUrl } from '../outbound/check-outbound-url'
import { queryIdProblem, s3DeliveryProblem } from '../core/check-envelope'
import { runQuery, type QueryDeps, type SearchOutcome } from '../core/run-query'
import type { SearchEngine } from '../search/search-engine'

/** Spec, query-processing table, first row: queryId or callbackUrl missing → 400 `{error}`, no callback. */
function readEnvelope(
  req: Request,
  outbound: { allowPrivate: boolean; allowedPorts?: readonly number[] },
): QueryEnvelope {
  const checked = validateQueryEnvelope(req.body)
  if (!checked.ok) throw new InvalidEnvelopeError(`invalid query envelope: ${checked.error}`)
  const envelope = checked.value
  const badQueryId = queryIdProblem(envelope.queryId)
  if (badQueryId) throw new InvalidEnvelopeError(`invalid query envelope: ${badQueryId}`)
  try {
    checkOutboundUrl(envelope.callbackUrl, 'callbackUrl', outbound)
  } catch (error) {
    if (error instanceof OutboundUrlError)
      throw new InvalidEnvelopeError(`invalid query envelope: ${error.message}`)
    throw error
  }
  return envelope
}

export interface SearchRouterOptions extends QueryDeps {
  engine: SearchEngine
  /** Private callback targets allowed (OUTBOUND_ALLOW_PRIVATE). */
  allowPrivate: boolean
  /** Ports outbound URLs may use (OUTBOUND_ALLOWED_PORTS); unset: any. */
  allowedPorts?: readonly number[]
  /** Longest a sanctions search may run (SEARCH_TIME_BUDGET_MS). */
  searchBudgetMs: number
  /** Object delivery's default bucket and the buckets a query may name (S3_ALLOWED_BUCKETS; unset: any). */
  s3: { defaultBucket: string; allowedBuckets?: readonly string[] }
}

/** `POST /api/search/companies` and `POST /api/search/sanctions`. */
export function createSearchRouter({
  engine,
  allowPrivate,
  allowedPorts,
  s3,
  searchBudgetMs,
  ...deps
}: SearchRouterOptions): Router {
  const router = Router()
  const route = <P>(
    endpoint: 'companies' | 'sanctions',
    validate: (parameters: unknown) => ValidationResult<P>,
    search: (parameters: P) => SearchOutcome,
  ) =>
    router.post(`/api/search/${endpoint}`, async (req, res) => {
      const envelope = readEnvelope(req, { allowPrivate, allowedPorts })
      // Spec, second row: invalid parameters (sanctions: name missing or empty) → 400 {error, queryId}, no callback.
      const parameters = validate(envelope.parameters ?? {})
      if (!parameters.ok)
        throw new InvalidParametersError(`invalid parameters: ${parameters.error}`, envelope.queryId)
      const name = (parameters.value as { name?: string | null }).name
      if (name && name.trim().split(/\s+/).length > MAX_SEARCH_NAME_WORDS)
        throw new InvalidParametersError(
          `invalid parameters: name has more than ${MAX_SEARCH_NAME_WORDS} words`,
          envelope.queryId,
        )
      if (resolveDeliveryMechanism(envelope.delivery) === 'pf_s3_sync') {
        const problem = s3DeliveryProblem(envelope.delivery, envelope.queryId, s3)
        if (problem) throw new InvalidParametersError(`invalid delivery: ${problem}`, envelope.queryId)
      }
      const answer = await runQuery(endpoint, envelope, () => search(parameters.value), deps)
      res.status(answer.status).json(answer.body)
    })

  route('companies', validateCompaniesParameters, (parameters) => engine.searchCompanies(parameters))
  route('sanctions', validateSanctionsParameters, (parameters) =>
    engine.searchSanctions(parameters, { deadline: Date.now() + searchBudgetMs }),
  )
  return router
}
