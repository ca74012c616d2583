import { Router } from 'express'
import { extractTraceContext } from '@pf/service-kit'
import { checkQuery, type QueryRules } from './check-query'
import {
  endpointPath,
  type EndpointDefinition,
  type SearchAnswer,
  type SearchOutcome,
} from './define-endpoint'
import { runQuery, type QueryDeps } from './run-query'

export interface SearchRouterOptions extends QueryDeps, QueryRules {
  endpoints: readonly EndpointDefinition<never, unknown>[]
  /** What a search is given as its `deadline`: this long after the query arrived. */
  searchTimeoutMs: number
  /** The setting an operator changes to allow private callback targets, named in the log of that refusal. */
  allowPrivateSetting: string
}

/** A search's answer as the query flow reads it: records alone are records never cut, with no fields. */
function outcomeOf(answer: SearchAnswer): SearchOutcome {
  if (Array.isArray(answer) || Symbol.asyncIterator in (answer as object))
    return { results: answer as SearchOutcome['results'] }
  return answer as SearchOutcome
}

/**
 * `POST <path>` for each endpoint: the body goes through `checkQuery` (a refusal is thrown to the app's error
 * handler), the query through `runQuery`, and its answer back.
 */
export function createSearchRouter({
  endpoints,
  allowPrivate,
  allowedPorts,
  s3,
  searchTimeoutMs,
  allowPrivateSetting,
  ...deps
}: SearchRouterOptions): Router {
  const router = Router()
  const rules: QueryRules = { allowPrivate, allowedPorts, s3 }
  for (const endpoint of endpoints as readonly EndpointDefinition<unknown, unknown>[])
    router.post(endpointPath(endpoint), async (req, res) => {
      const arrived = Date.now()
      // What `check` reads (a snapshot of lists, say) is what the search reads: the check and the search run in
      // one turn of the event loop (runQuery searches before its first await).
      const checked = checkQuery(endpoint, req.body, rules)
      if (!checked.ok) {
        // The one refusal a developer meets on a laptop (pf-sim and the sandbox listen on 127.0.0.1): say which
        // setting lifts it, here in the log, never in the answer (which a caller on the internet reads).
        if (!allowPrivate && checked.refusal.message.endsWith('callbackUrl points at a non-public address'))
          deps.logger.warn(
            { callbackUrl: (req.body as { callbackUrl?: unknown }).callbackUrl },
            `callbackUrl points at a non-public address: refused (${allowPrivateSetting}=true allows it, for local development and tests only)`,
          )
        throw checked.refusal
      }
      const { envelope, parameters } = checked.query
      // The API key was checked before this router: the platform's traceparent may be honoured.
      const parent = extractTraceContext(req.headers)
      // The platform hung up before the answer: nobody reads it, so the search and the delivery stop (the query
      // fails, with its callback) instead of running on to the whole-delivery limit.
      const hungUp = new AbortController()
      const onClose = () => {
        if (!res.writableFinished) hungUp.abort(new Error('the platform closed the connection'))
      }
      res.once('close', onClose)
      const answer = await runQuery(
        endpoint.name,
        envelope,
        ({ mechanism, signal, span }) => {
          const context = {
            queryId: envelope.queryId,
            mechanism,
            signal,
            deadline: arrived + searchTimeoutMs,
            logger: deps.logger.child({ queryId: envelope.queryId, endpoint: endpoint.name }),
            trace: span,
          }
          const given = endpoint.search(parameters, context)
          return given instanceof Promise ? given.then(outcomeOf) : outcomeOf(given)
        },
        deps,
        parent,
        hungUp.signal,
      )
      res.off('close', onClose)
      res.status(answer.status).json(answer.body)
    })
  return router
}
