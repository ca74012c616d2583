import { Router, type Request } from 'express'
import {
  validateCompaniesParameters,
  validateQueryEnvelope,
  validateSanctionsParameters,
  type QueryEnvelope,
  type ValidationResult,
} from '@pf/schemas'
import { InvalidEnvelopeError, InvalidParametersError, OutboundUrlError } from '../errors'
import { checkOutboundUrl } from '../outbound/check-outbound-url'
import { runQuery, type QueryDeps } from '../core/run-query'
import { SAFE_QUERY_ID } from '../core/safe-query-id'
import type { SearchEngine } from '../search/search-engine'

/** Spec, query-processing table, first row: queryId or callbackUrl missing → 400 `{error}`, no callback. */
function readEnvelope(req: Request, allowPrivate: boolean): QueryEnvelope {
  const checked = validateQueryEnvelope(req.body)
  if (!checked.ok) throw new InvalidEnvelopeError(`invalid query envelope: ${checked.error}`)
  const envelope = checked.value
  if (!SAFE_QUERY_ID.test(envelope.queryId)) {
    throw new InvalidEnvelopeError(
      'invalid query envelope: queryId may hold only letters, digits and ._:- (max 128)',
    )
  }
  try {
    checkOutboundUrl(envelope.callbackUrl, 'callbackUrl', { allowPrivate })
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
}

/** `POST /api/search/companies` and `POST /api/search/sanctions`. */
export function createSearchRouter({ engine, allowPrivate, ...deps }: SearchRouterOptions): Router {
  const router = Router()
  const route = <P>(
    endpoint: 'companies' | 'sanctions',
    validate: (parameters: unknown) => ValidationResult<P>,
    search: (parameters: P) => unknown[],
  ) =>
    router.post(`/api/search/${endpoint}`, async (req, res) => {
      const envelope = readEnvelope(req, allowPrivate)
      // Spec, second row: invalid parameters (sanctions: name missing or empty) → 400 {error, queryId}, no callback.
      const parameters = validate(envelope.parameters ?? {})
      if (!parameters.ok)
        throw new InvalidParametersError(`invalid parameters: ${parameters.error}`, envelope.queryId)
      const answer = await runQuery(endpoint, envelope, () => search(parameters.value), deps)
      res.status(answer.status).json(answer.body)
    })

  route('companies', validateCompaniesParameters, (parameters) => engine.searchCompanies(parameters))
  route('sanctions', validateSanctionsParameters, (parameters) => engine.searchSanctions(parameters))
  return router
}
