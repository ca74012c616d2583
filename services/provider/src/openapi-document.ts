import {
  CallbackPayloadSchema,
  CompaniesParametersSchema,
  QueryEnvelopeSchema,
  SanctionsParametersSchema,
} from '@pf/schemas'
import { buildOpenApiDocument, type OpenApiOperation } from '@pf/service-kit'
import { API_KEY_HEADER } from '@pf/schemas'

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
  truncated: {
    const: true,
    description:
      'present when `limit` (or, for a delivery without one, PROVIDER_MAX_DELIVERY_RECORDS) left matching records out',
  },
  totalMatches: {
    type: 'integer',
    minimum: 0,
    description: 'screening, when truncated: how many entries reached the threshold in all',
  },
}

function search(kind: 'companies' | 'sanctions'): OpenApiOperation {
  return {
    summary: `Run a ${kind} query envelope`,
    description: `parameters: ${kind === 'companies' ? 'CompaniesParameters' : 'SanctionsParameters'}. The status callback is posted to callbackUrl before this answers.`,
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

/** Screening answers: the versions of the sanctions lists the search ran on. */
const lists = {
  type: 'array',
  items: {
    type: 'object',
    properties: { name: { type: 'string' }, sha256: { type: 'string' } },
    required: ['name', 'sha256'],
    additionalProperties: false,
  },
}

/** The provider's OpenAPI 3.1 document, served at /openapi.json. */
export const providerOpenApi = buildOpenApiDocument({
  title: 'pf data provider',
  version: '0.1.0',
  description:
    'Interface A of the marketplace integration: query envelopes in, results delivered inline, to S3 or by POST, plus a signed status callback.',
  paths: {
    '/api/search/companies': { post: search('companies') },
    '/api/search/sanctions': { post: search('sanctions') },
  },
  schemas: {
    QueryEnvelope: QueryEnvelopeSchema,
    CompaniesParameters: CompaniesParametersSchema,
    SanctionsParameters: SanctionsParametersSchema,
    CallbackPayload: CallbackPayloadSchema,
    InlineAnswer: {
      type: 'object',
      properties: { ...counts, lists, results: { type: 'array', items: { type: 'object' } } },
      required: ['queryId', 'recordCount', 'executionTimeMs', 'results'],
      additionalProperties: false,
    },
    DeliveredAnswer: {
      type: 'object',
      properties: {
        ...counts,
        lists,
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
