import type { Span } from '@opentelemetry/api'
import type { DeliveryResult } from '@pf/schemas'
import type { Logger } from 'pino'

/** A JSON Schema (draft 2020-12), as plain data. */
export type JsonSchema = Record<string, unknown>

/** What a search is given beside its parameters. */
export interface SearchContext {
  queryId: string
  /** How the records leave: `inline` answers hold them in memory, the others stream them as they are read. */
  mechanism: DeliveryResult['mechanism']
  /**
   * Epoch ms by which the search should have answered (`searchTimeoutMs`): its own budget, which the kit never
   * enforces (a streamed delivery reads on past it); the search stops itself past it (a `SearchError`).
   */
  deadline: number
  /**
   * Aborts at the whole delivery's limit (`delivery.timeoutMs`) and when the platform closes the connection
   * before the answer (not at shutdown: queries in flight are drained): stop reading the store.
   */
  signal: AbortSignal
  logger: Logger
  /** The `provider.search` span: attributes a search adds (ids and counts, never names) join the query's trace. */
  trace: Span
}

/**
 * What a search gives when it says more than its records: `truncated` when a limit left matches out (the answer
 * then says `truncated: true`, never cut silently); `fields` join the answer (screening's `totalMatches`,
 * `lists`). For records streamed to a delivery either may be a function, read once the delivery read them all.
 */
export interface SearchOutcome<R = unknown> {
  results: readonly R[] | AsyncIterable<R>
  truncated?: boolean | (() => boolean)
  fields?: Record<string, unknown> | (() => Record<string, unknown>)
}

/** A search's answer: its records (an array, or an async iterable for a delivery), or a `SearchOutcome`. */
export type SearchAnswer<R = unknown> = readonly R[] | AsyncIterable<R> | SearchOutcome<R>

/** One search endpoint: what a team writes; the kit does the rest of interface A. */
export interface EndpointDefinition<P = Record<string, unknown>, R = unknown> {
  /** The endpoint's name: `POST /api/search/<name>` unless `path` says otherwise; a label of metrics and traces. */
  name: string
  /** Default `/api/search/<name>`. */
  path?: string
  /** One line for the OpenAPI document. */
  summary?: string
  /**
   * The JSON Schema of `parameters` (an absent `parameters` is checked as `{}`): a value it refuses is a 400
   * `{error: "invalid parameters: …", queryId}` with no callback (spec, query-processing table, second row).
   */
  parameters: JsonSchema
  /** What the schema cannot say: a refusal's text (400 `{error: "invalid parameters: <text>", queryId}`), or undefined. */
  check?(parameters: P): string | undefined
  /**
   * The search. It starts in the same turn of the event loop as `check`: what `check` read (a snapshot of
   * lists, say) is what the search reads. A thrown error is a failed query (500 `{error, queryId}` and a failed
   * callback); its text reaches the caller only for a `ProviderError` (`SearchError`).
   */
  search(parameters: P, context: SearchContext): SearchAnswer<R> | Promise<SearchAnswer<R>>
  /** JSON Schemas of the fields `SearchOutcome.fields` adds to the answer, for the OpenAPI document. */
  answerFields?: Record<string, JsonSchema>
}

/** A search endpoint, typed by its parameters and records (`P`, `R`). */
export function defineEndpoint<P = Record<string, unknown>, R = unknown>(
  definition: EndpointDefinition<P, R>,
): EndpointDefinition<P, R> {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(definition.name))
    throw new TypeError(
      `endpoint name must be lower-case letters, digits and dashes (got "${definition.name}")`,
    )
  return definition
}

/** The path an endpoint answers on. */
export const endpointPath = (endpoint: Pick<EndpointDefinition, 'name' | 'path'>): string =>
  endpoint.path ?? `/api/search/${endpoint.name}`
