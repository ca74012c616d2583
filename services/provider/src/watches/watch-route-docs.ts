import type { JsonSchema, RouteDoc } from '@pf/provider-kit'
import { WatchBodySchema, WatchDecisionSchema, WatchSubjectSchema } from '@pf/schemas'
import { MAX_PAGE_LIMIT } from './read-page'

const error = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] }
const object = { type: 'object' }
const id = { type: 'string', maxLength: 128 }
const page: RouteDoc['query'] = {
  limit: { schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: 100 } },
  after: { schema: { type: 'string' }, description: 'the nextCursor of the page before' },
}
/** What every watch route may refuse with (the kit adds the API key's 401). */
const refusals: RouteDoc['responses'] = {
  '400': { description: 'invalid input', schema: error },
  '404': { description: 'no such watch or subject', schema: error },
  '501': { description: 'no watches database (WATCHES_DATABASE_URL)', schema: error },
}
const ingestAnswer: JsonSchema = {
  type: 'object',
  properties: {
    accepted: { type: 'integer' },
    rejected: {
      type: 'array',
      maxItems: 100,
      items: { type: 'object', properties: { index: { type: 'integer' }, error: { type: 'string' } } },
    },
    rejectedCount: { type: 'integer' },
    error: { type: 'string', description: 'why the body stopped being read (the batches before stay)' },
  },
  required: ['accepted', 'rejected', 'rejectedCount'],
}

/** A watch route's doc: its path parameters are watch and subject ids; it answers 200 or a refusal. */
export const watchRouteDoc = (
  method: RouteDoc['method'],
  path: string,
  summary: string,
  rest: Partial<RouteDoc> = {},
): RouteDoc => ({
  method,
  path,
  summary,
  pathParameters: Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, id])),
  responses: { '200': { description: 'done', schema: object }, ...refusals },
  ...rest,
})

/** The watch routes (`watchRoutes`) in the provider's OpenAPI document (issue 40). */
export const WATCH_ROUTE_DOCS: readonly RouteDoc[] = [
  watchRouteDoc('get', '/watches', 'List watches (cursor-paginated)', { query: page }),
  watchRouteDoc(
    'put',
    '/watches/{watchId}',
    'Create (201) or replace (200) a watch; a new threshold, lists or entityType re-screens it',
    { requestBody: WatchBodySchema },
  ),
  watchRouteDoc('get', '/watches/{watchId}', 'A watch, without its alertToken'),
  watchRouteDoc(
    'delete',
    '/watches/{watchId}',
    'Delete a watch with its subjects, hits, decisions and alerts (204)',
  ),
  watchRouteDoc(
    'post',
    '/watches/{watchId}/subjects',
    'Upsert subjects, streamed: a JSON array (application/json) or JSON Lines (application/x-ndjson)',
    {
      requestBody: { type: 'array', items: WatchSubjectSchema },
      requestMediaTypes: { 'application/x-ndjson': WatchSubjectSchema },
      streamed: true,
      responses: {
        '200': { description: 'read whole', schema: ingestAnswer },
        '413': { description: 'past WATCH_SUBJECTS_MAX_BYTES; batches before stay', schema: ingestAnswer },
        '415': { description: 'another Content-Type', schema: error },
        ...refusals,
      },
    },
  ),
  watchRouteDoc('get', '/watches/{watchId}/subjects', 'List subjects (cursor-paginated)', { query: page }),
  watchRouteDoc(
    'get',
    '/watches/{watchId}/subjects/{subjectId}',
    'A subject with its current hits and their decisions',
  ),
  watchRouteDoc(
    'delete',
    '/watches/{watchId}/subjects/{subjectId}',
    'Delete a subject with its hits and decisions (204)',
  ),
  watchRouteDoc(
    'post',
    '/watches/{watchId}/decisions',
    'Record a decision on a subject and a listed entry (201); history kept',
    { requestBody: WatchDecisionSchema },
  ),
]
