import type { RequestHandler } from 'express'

type Schema = Record<string, unknown>

export interface OpenApiResponse {
  description: string
  /** JSON body schema (a `$ref` into components or inline). */
  schema?: Schema
  contentType?: string
  headers?: Record<string, { description: string; schema: Schema }>
}

export interface OpenApiOperation {
  summary: string
  description?: string
  security?: Record<string, string[]>[]
  parameters?: Schema[]
  /** One schema in one media type (default JSON), or a schema by media type for a body taken in several. */
  requestBody?:
    | { schema: Schema; contentType?: string; required?: boolean }
    | { content: Record<string, Schema>; required?: boolean }
  responses: Record<string, OpenApiResponse>
  callbacks?: Schema
}

export interface OpenApiInput {
  title: string
  version: string
  description: string
  paths: Record<string, Record<string, OpenApiOperation>>
  schemas: Record<string, Schema>
  securitySchemes?: Record<string, Schema>
}

const json = (schema: Schema, contentType = 'application/json') => ({ [contentType]: { schema } })

/** `{status}` and nothing else: what `/health` and `/ready` may say to anyone who reaches them. */
const statusOnly = (status: string): Schema => ({
  type: 'object',
  properties: { status: { const: status } },
  required: ['status'],
  additionalProperties: false,
})

/** The ops endpoints every service has (service contract, "HTTP surfaces"). */
export const OPS_PATHS: OpenApiInput['paths'] = {
  '/health': {
    get: {
      summary: 'Liveness (no dependencies)',
      description: 'The status only: nothing about what the service holds or where.',
      responses: {
        '200': { description: 'alive', schema: statusOnly('ok') },
      },
    },
  },
  '/ready': {
    get: {
      summary: 'Readiness: its dependencies answer',
      description:
        'The status only. The dependencies are checked at most once per READY_CACHE_MS (default 2000 ms), however often this is called; the reason of a failure is logged, not answered.',
      responses: {
        '200': { description: 'ready', schema: statusOnly('ready') },
        '503': { description: 'not ready', schema: statusOnly('not ready') },
      },
    },
  },
  '/metrics': {
    get: {
      summary: 'Prometheus metrics',
      description: 'Served here only while METRICS_PORT is unset; with it, on that port alone.',
      responses: {
        '200': {
          description: 'text exposition format',
          contentType: 'text/plain',
          schema: { type: 'string' },
        },
      },
    },
  },
  '/openapi.json': {
    get: {
      summary: 'This document',
      responses: { '200': { description: 'OpenAPI 3.1', schema: { type: 'object' } } },
    },
  },
}

/**
 * An OpenAPI 3.1 document from plain operations and JSON Schemas (OpenAPI 3.1 schemas are JSON Schema 2020-12,
 * so @pf/schemas' schemas go in as they are).
 */
export function buildOpenApiDocument({
  title,
  version,
  description,
  paths,
  schemas,
  securitySchemes,
}: OpenApiInput) {
  const operations = Object.fromEntries(
    Object.entries({ ...paths, ...OPS_PATHS }).map(([path, methods]) => [
      path,
      Object.fromEntries(
        Object.entries(methods).map(([method, op]) => [
          method,
          {
            summary: op.summary,
            ...(op.description ? { description: op.description } : {}),
            ...(op.security ? { security: op.security } : {}),
            ...(op.parameters ? { parameters: op.parameters } : {}),
            ...(op.requestBody
              ? {
                  requestBody: {
                    required: op.requestBody.required ?? true,
                    content:
                      'content' in op.requestBody
                        ? Object.fromEntries(
                            Object.entries(op.requestBody.content).map(([type, schema]) => [
                              type,
                              { schema },
                            ]),
                          )
                        : json(op.requestBody.schema, op.requestBody.contentType),
                  },
                }
              : {}),
            ...(op.callbacks ? { callbacks: op.callbacks } : {}),
            responses: Object.fromEntries(
              Object.entries(op.responses).map(([status, response]) => [
                status,
                {
                  description: response.description,
                  ...(response.headers ? { headers: response.headers } : {}),
                  ...(response.schema ? { content: json(response.schema, response.contentType) } : {}),
                },
              ]),
            ),
          },
        ]),
      ),
    ]),
  )
  // JSON round trip: drops TypeBox's symbol keys and anything that is not plain JSON.
  return JSON.parse(
    JSON.stringify({
      openapi: '3.1.0',
      jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
      info: { title, version, description },
      paths: operations,
      components: { schemas, ...(securitySchemes ? { securitySchemes } : {}) },
    }),
  ) as Record<string, unknown>
}

/** `GET /openapi.json`. */
export function openApiRoute(document: Record<string, unknown>): RequestHandler {
  return (_req, res) => void res.json(document)
}
