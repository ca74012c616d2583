import { API_KEY_HEADER, CallbackPayloadSchema, QueryEnvelopeSchema } from '@pf/schemas'
import { buildOpenApiDocument, type OpenApiOperation } from '@pf/service-kit'
import { endpointPath, type EndpointDefinition, type JsonSchema } from './define-endpoint'
import { routeOperation, type RouteDoc } from './route-doc'

/** What the document reads of an endpoint: never its search. */
export type DocumentedEndpoint = Pick<
  EndpointDefinition<never, unknown>,
  'name' | 'path' | 'summary' | 'parameters' | 'answerFields'
>

export interface OpenApiOptions {
  endpoints: readonly DocumentedEndpoint[]
  /** The extra routes under `/api`. */
  routes?: readonly RouteDoc[]
  title?: string
  version?: string
  description?: string
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const error = {
  type: 'object',
  properties: { error: { type: 'string' } },
  required: ['error'],
  additionalProperties: false,
}
const errorWithQueryId = {
  type: 'object',
  properties: { error: { type: 'string' }, queryId: { type: 'string' } },
  required: ['error', 'queryId'],
  additionalProperties: false,
}
const counts = {
  queryId: { type: 'string' },
  recordCount: { type: 'integer', minimum: 0 },
  executionTimeMs: { type: 'integer', minimum: 0 },
  truncated: { const: true, description: 'present when a limit left matching records out' },
}

/** `companies` → `CompaniesParameters`: the parameters schema's name among the components. */
const parametersName = (name: string) =>
  `${name.replace(/(^|-)([a-z0-9])/g, (_, _dash: string, c: string) => c.toUpperCase())}Parameters`

function search(endpoint: DocumentedEndpoint): OpenApiOperation {
  return {
    summary: endpoint.summary ?? `Run a ${endpoint.name} query envelope`,
    description: `parameters: ${parametersName(endpoint.name)}. The status callback is posted to callbackUrl before this answers.`,
    security: [{ apiKey: [] }],
    requestBody: { schema: ref('QueryEnvelope') },
    callbacks: {
      statusCallback: {
        '{$request.body#/callbackUrl}': {
          post: {
            summary:
              'Status callback, signed X-PF-Signature: sha256=<hex HMAC-SHA256 of the body keyed by callbackToken>',
            requestBody: { content: { 'application/json': { schema: ref('CallbackPayload') } } },
            responses: { '200': { description: 'not examined' } },
          },
        },
      },
    },
    responses: {
      '200': { description: 'delivered', schema: { oneOf: [ref('InlineAnswer'), ref('DeliveredAnswer')] } },
      '400': {
        description: 'invalid envelope ({error}) or parameters ({error, queryId}); no callback',
        schema: { oneOf: [ref('Error'), ref('ErrorWithQueryId')] },
      },
      '401': { description: `missing or wrong ${API_KEY_HEADER}`, schema: ref('Error') },
      '413': { description: 'body too large', schema: ref('Error') },
      '500': {
        description: 'search or delivery failed; a failed callback was posted',
        schema: ref('ErrorWithQueryId'),
      },
    },
  }
}

/** The operations by path: each endpoint's search, and the extra routes; several methods may share a path. */
function pathsOf(endpoints: readonly DocumentedEndpoint[], routes: readonly RouteDoc[]) {
  const paths: Record<string, Record<string, OpenApiOperation>> = Object.fromEntries(
    endpoints.map((endpoint) => [endpointPath(endpoint), { post: search(endpoint) }]),
  )
  for (const route of routes) {
    const path = `/api${route.path}`
    paths[path] = { ...paths[path], [route.method]: routeOperation(route) }
  }
  return paths
}

/**
 * The provider's OpenAPI 3.1 document, served at /openapi.json: one search operation per endpoint (its
 * parameters schema among the components), the answers with the fields the endpoints add, the extra routes,
 * the ops routes.
 */
export function buildProviderOpenApi({
  endpoints,
  routes = [],
  title = 'pf data provider',
  version = '0.1.0',
  description = 'Interface A of the marketplace integration: query envelopes in, results delivered inline, to S3 or by POST, plus a signed status callback.',
}: OpenApiOptions) {
  const added: Record<string, JsonSchema> = Object.assign({}, ...endpoints.map((e) => e.answerFields ?? {}))
  return buildOpenApiDocument({
    title,
    version,
    description,
    paths: pathsOf(endpoints, routes),
    schemas: {
      QueryEnvelope: QueryEnvelopeSchema,
      ...Object.fromEntries(
        endpoints.map((endpoint) => [parametersName(endpoint.name), endpoint.parameters]),
      ),
      CallbackPayload: CallbackPayloadSchema,
      InlineAnswer: {
        type: 'object',
        properties: { ...counts, ...added, results: { type: 'array', items: { type: 'object' } } },
        required: ['queryId', 'recordCount', 'executionTimeMs', 'results'],
        additionalProperties: false,
      },
      DeliveredAnswer: {
        type: 'object',
        properties: {
          ...counts,
          ...added,
          delivery: {
            type: 'object',
            properties: { mechanism: { enum: ['pf_s3_sync', 'webhook'] }, reference: { type: 'string' } },
            required: ['mechanism', 'reference'],
            additionalProperties: false,
          },
        },
        required: ['queryId', 'recordCount', 'executionTimeMs', 'delivery'],
        additionalProperties: false,
      },
      Error: error,
      ErrorWithQueryId: errorWithQueryId,
    },
    securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER } },
  })
}
