import type { OpenApiOperation } from '@pf/service-kit'
import { WatchBodySchema, WatchDecisionSchema, WatchSubjectSchema } from '@pf/schemas'
import { DEFAULT_ALERT_PAGE, MAX_ALERT_PAGE } from './alerts/watch-alert-routes'
import { MAX_PAGE_LIMIT } from './read-page'

const security = [{ apiKey: [] }]
const error = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] }
const object = { type: 'object' }
const path = (name: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string', maxLength: 128 },
})
const page = [
  {
    name: 'limit',
    in: 'query',
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: 100 },
  },
  {
    name: 'after',
    in: 'query',
    schema: { type: 'string' },
    description: 'the nextCursor of the page before',
  },
]
const refusals = {
  '400': { description: 'invalid input', schema: error },
  '401': { description: 'missing or wrong X-PF-Api-Key', schema: error },
  '404': { description: 'no such watch or subject', schema: error },
  '501': { description: 'no watches database (WATCHES_DATABASE_URL)', schema: error },
}
const ingestAnswer = {
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

const op = (summary: string, rest: Partial<OpenApiOperation>): OpenApiOperation => ({
  summary,
  security,
  responses: { '200': { description: 'done', schema: object }, ...refusals },
  ...rest,
})

/** The watch routes in the provider's OpenAPI document (issue 40). */
export const WATCH_OPENAPI_PATHS: Record<string, Record<string, OpenApiOperation>> = {
  '/api/watches': { get: op('List watches (cursor-paginated)', { parameters: page }) },
  '/api/watches/{watchId}': {
    put: op('Create (201) or replace (200) a watch; a new threshold, lists or entityType re-screens it', {
      parameters: [path('watchId')],
      requestBody: { schema: WatchBodySchema },
    }),
    get: op('A watch, without its alertToken', { parameters: [path('watchId')] }),
    delete: op('Delete a watch with its subjects, hits, decisions and alerts (204)', {
      parameters: [path('watchId')],
    }),
  },
  '/api/watches/{watchId}/subjects': {
    post: op(
      'Upsert subjects, streamed: a JSON array (application/json) or JSON Lines (application/x-ndjson)',
      {
        parameters: [path('watchId')],
        requestBody: { schema: { type: 'array', items: WatchSubjectSchema } },
        responses: {
          '200': { description: 'read whole', schema: ingestAnswer },
          '413': { description: 'past WATCH_SUBJECTS_MAX_BYTES; batches before stay', schema: ingestAnswer },
          '415': { description: 'another Content-Type', schema: error },
          ...refusals,
        },
      },
    ),
    get: op('List subjects (cursor-paginated)', { parameters: [path('watchId'), ...page] }),
  },
  '/api/watches/{watchId}/subjects/{subjectId}': {
    get: op('A subject with its current hits and their decisions', {
      parameters: [path('watchId'), path('subjectId')],
    }),
    delete: op('Delete a subject with its hits and decisions (204)', {
      parameters: [path('watchId'), path('subjectId')],
    }),
  },
  '/api/watches/{watchId}/decisions': {
    post: op('Record a decision on a subject and a listed entry (201); history kept', {
      parameters: [path('watchId')],
      requestBody: { schema: WatchDecisionSchema },
    }),
  },
  '/api/watches/{watchId}/alerts': {
    get: op(
      'The alerts not yet acknowledged (pending) or past their retry horizon (failed), in delivery order',
      {
        parameters: [
          path('watchId'),
          {
            name: 'status',
            in: 'query',
            schema: { type: 'string', enum: ['pending', 'failed'], default: 'pending' },
          },
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: MAX_ALERT_PAGE, default: DEFAULT_ALERT_PAGE },
          },
          {
            name: 'cursor',
            in: 'query',
            schema: { type: 'string' },
            description: 'the nextCursor of the page before',
          },
        ],
      },
    ),
  },
  '/api/watches/{watchId}/alerts/retry': {
    post: op("Re-queue the watch's failed alert batch with a whole retry horizon: {watchId, requeued}", {
      parameters: [path('watchId')],
    }),
  },
}
