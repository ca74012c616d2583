import { API_KEY_HEADER } from '@pf/schemas'
import type { OpenApiOperation } from '@pf/service-kit'
import type { JsonSchema } from './define-endpoint'

/** A query parameter of an extra route. */
export interface QueryParameterDoc {
  schema: JsonSchema
  description?: string
  required?: boolean
}

/** One answer of an extra route: when it comes, and its body's schema (`application/json` unless said). */
export interface RouteResponseDoc {
  description: string
  schema?: JsonSchema
  contentType?: string
}

/**
 * One extra route (`ProviderOptions.routes`) as the OpenAPI document shows it: its path under `/api` (`/lists`
 * is `GET /api/lists`; `{id}` for a path parameter), what it takes and what it answers. The kit adds the API
 * key and its 401, and the 413 of its body limit unless the route streams its body (then its own 413 stands).
 */
export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  path: string
  summary: string
  description?: string
  /** The schemas of the path's `{name}` parameters by name (unnamed: a string); each is required. */
  pathParameters?: Record<string, JsonSchema>
  /** Its query parameters by name, in this order. */
  query?: Record<string, QueryParameterDoc>
  /** The JSON body it takes (`application/json`). */
  requestBody?: JsonSchema
  /**
   * The body's schema in the other media types it takes, by media type (JSON Lines, `application/x-ndjson`: one
   * line's schema).
   */
  requestMediaTypes?: Record<string, JsonSchema>
  /**
   * The kit leaves the body unread (no JSON parsing, no body limit): the route streams it, with a limit and a
   * time-out of its own.
   */
  streamed?: boolean
  /** Its answers by status. */
  responses: Record<string, RouteResponseDoc>
}

const ERROR = { $ref: '#/components/schemas/Error' }

/** `{watchId}` and `{subjectId}` of `/watches/{watchId}/subjects/{subjectId}`, in order. */
const pathParameterNames = (path: string) =>
  [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name as string)

function parametersOf(route: RouteDoc) {
  const inPath = pathParameterNames(route.path)
  const stray = Object.keys(route.pathParameters ?? {}).find((name) => !inPath.includes(name))
  if (stray !== undefined)
    throw new TypeError(
      `the route doc of ${route.method} ${route.path} names a path parameter "${stray}" not in its path`,
    )
  return [
    ...inPath.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: route.pathParameters?.[name] ?? { type: 'string' },
    })),
    ...Object.entries(route.query ?? {}).map(([name, { schema, description, required }]) => ({
      name,
      in: 'query',
      ...(required ? { required } : {}),
      schema,
      ...(description ? { description } : {}),
    })),
  ]
}

/** An extra route's operation: its own answers, the API key's, and the body limit's unless it streams its body. */
export function routeOperation(route: RouteDoc): OpenApiOperation {
  const parameters = parametersOf(route)
  const content = {
    ...(route.requestBody ? { 'application/json': route.requestBody } : {}),
    ...route.requestMediaTypes,
  }
  return {
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    security: [{ apiKey: [] }],
    ...(Object.keys(content).length > 0 ? { requestBody: { content } } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    responses: {
      ...route.responses,
      '401': { description: `missing or wrong ${API_KEY_HEADER}`, schema: ERROR },
      ...(route.streamed ? {} : { '413': { description: 'body too large', schema: ERROR } }),
    },
  }
}
