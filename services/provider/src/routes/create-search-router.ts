import { Router } from 'express'
import { extractTraceContext } from '@pf/service-kit'
import { checkQuery, type ParametersOf, type QueryRules } from '../core/check-query'
import {
  runQuery,
  type QueryDeps,
  type SearchEndpoint,
  type SearchOutcome,
  type SearchRequest,
} from '../core/run-query'
import type { SearchEngine } from '../search-engine'

export interface SearchRouterOptions extends QueryDeps, QueryRules {
  engine: SearchEngine
  /** Longest a sanctions search may run (SEARCH_TIME_BUDGET_MS). */
  searchBudgetMs: number
  /** Most records a `pf_s3_sync` or `webhook` delivery carries without a query `limit` (unset: every match). */
  maxDeliveryRecords?: number
}

/**
 * `POST /api/search/companies` and `POST /api/search/sanctions`: the body goes through `checkQuery` (a refusal
 * is thrown to the app's error handler), the query through `runQuery`, and its answer back.
 */
export function createSearchRouter({
  engine,
  allowPrivate,
  allowedPorts,
  s3,
  searchBudgetMs,
  maxDeliveryRecords,
  ...deps
}: SearchRouterOptions): Router {
  const router = Router()
  const rules: QueryRules = { allowPrivate, allowedPorts, s3 }
  const route = <E extends SearchEndpoint>(
    endpoint: E,
    search: (parameters: ParametersOf[E], request: SearchRequest) => SearchOutcome | Promise<SearchOutcome>,
  ) =>
    router.post(`/api/search/${endpoint}`, async (req, res) => {
      // The lists a query may name are those of the snapshot it will screen: the check and the search run in
      // one turn of the event loop (runQuery searches before its first await), so no refresh comes between.
      const checked = checkQuery(endpoint, req.body, {
        ...rules,
        listNames: engine.lists.current().selectable,
      })
      if (!checked.ok) {
        // The one refusal a developer meets on a laptop (pf-sim and the sandbox listen on 127.0.0.1): say which
        // setting lifts it, here in the log, never in the answer (which a caller on the internet reads).
        if (!allowPrivate && checked.refusal.message.endsWith('callbackUrl points at a non-public address'))
          deps.logger.warn(
            { callbackUrl: (req.body as { callbackUrl?: unknown }).callbackUrl },
            'callbackUrl points at a non-public address: refused (OUTBOUND_ALLOW_PRIVATE=true allows it, for local development and tests only)',
          )
        throw checked.refusal
      }
      const { envelope, parameters } = checked.query
      // The API key was checked before this router (create-app.ts): the platform's traceparent may be honoured.
      const parent = extractTraceContext(req.headers)
      const answer = await runQuery(
        endpoint,
        envelope,
        (request) => search(parameters, request),
        deps,
        parent,
      )
      res.status(answer.status).json(answer.body)
    })

  // Inline answers keep the search's limit (default 100) and say `truncated`; object and webhook deliveries
  // stream every match unless the query sets `limit` (or the operator `PROVIDER_MAX_DELIVERY_RECORDS`).
  route('companies', (parameters, { mechanism, signal }) => {
    if (mechanism === 'inline') return engine.searchCompanies(parameters)
    const { records, truncated } = engine.streamCompanies(parameters, { cap: maxDeliveryRecords, signal })
    return { results: records, truncated }
  })
  route('sanctions', (parameters) =>
    engine.searchSanctions(parameters, { deadline: Date.now() + searchBudgetMs }),
  )
  return router
}
