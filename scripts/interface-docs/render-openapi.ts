// An OpenAPI 3.1 document (as @pf/service-kit's buildOpenApiDocument writes them) in Markdown: each operation
// with its authentication, headers, request body, answers and callbacks, then each schema as a table.
import { OPS_PATHS } from '@pf/service-kit'
import { cell, schemaTable, typeOf, type Schema } from './render-schema'

type OpenApi = Record<string, unknown>
type Operation = {
  summary: string
  description?: string
  security?: Record<string, string[]>[]
  parameters?: Schema[]
  requestBody?: { content: Record<string, { schema: Schema }> }
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>
  callbacks?: Record<string, Record<string, Record<string, Operation>>>
}

const paths = (doc: OpenApi) => doc.paths as Record<string, Record<string, Operation>>

/** An inline object's shape, `{received: true}`; anything else as its type (a link to a schema's table). */
const shapeOf = (schema: Schema): string =>
  schema.type === 'object' && schema.properties
    ? `{${Object.entries(schema.properties as Record<string, Schema>)
        .map(([name, property]) => `${name}: ${typeOf(property).replace(/`/g, '')}`)
        .join(', ')}}`
    : typeOf(schema)

/** A body: what its schema is, and its media type. */
const body = (content: Record<string, { schema: Schema }> | undefined) =>
  Object.entries(content ?? {})
    .map(([type, { schema }]) => `${shapeOf(schema)} (\`${type}\`)`)
    .join(', ')

function security(doc: OpenApi, op: Operation): string[] {
  const schemes = ((doc.components as Schema).securitySchemes ?? {}) as Record<string, Schema>
  return (op.security ?? []).flatMap((requirement) =>
    Object.keys(requirement).map((name) => {
      const scheme = schemes[name] ?? {}
      return scheme.type === 'apiKey'
        ? `Authentication: the \`${String(scheme.name)}\` ${String(scheme.in)} (${name}).`
        : `Authentication: \`Authorization: Bearer <${String(scheme.bearerFormat ?? 'token')}>\` (${name}).`
    }),
  )
}

function operation(doc: OpenApi, method: string, path: string, op: Operation): string {
  const headers = (op.parameters ?? []).filter((parameter) => parameter.in === 'header')
  return [
    `### \`${method.toUpperCase()} ${path}\``,
    '',
    cell(`${op.summary}.${op.description ? ` ${op.description}` : ''}`),
    '',
    ...security(doc, op).flatMap((line) => [line, '']),
    ...(headers.length > 0
      ? [
          '| request header | required | value |',
          '| --- | --- | --- |',
          ...headers.map(
            (header) =>
              `| \`${String(header.name)}\` | ${header.required ? 'yes' : ''} | ${cell(`${String(header.description ?? '')}; ${typeOf(header.schema as Schema)}`)} |`,
          ),
          '',
        ]
      : []),
    ...(op.requestBody ? [`Request body: ${body(op.requestBody.content)}.`, ''] : []),
    '| status | when | body |',
    '| --- | --- | --- |',
    ...Object.entries(op.responses).map(
      ([status, response]) =>
        `| ${status} | ${cell(response.description)} | ${cell(body(response.content) || '—')} |`,
    ),
    '',
    ...Object.entries(op.callbacks ?? {}).flatMap(([name, expressions]) =>
      Object.entries(expressions).flatMap(([target, methods]) =>
        Object.entries(methods).flatMap(([callbackMethod, callback]) => [
          `Callback \`${name}\`: \`${callbackMethod.toUpperCase()} ${target}\`, ${cell(callback.summary)}. Body: ${body(callback.requestBody?.content)}; its answer: ${Object.entries(
            callback.responses,
          )
            .map(([status, response]) => `${status} ${response.description}`)
            .join('; ')}.`,
          '',
        ]),
      ),
    ),
  ].join('\n')
}

/** Every operation of the document but the ops endpoints every service shares (rendered once, below). */
export function renderOperations(doc: OpenApi): string {
  return Object.entries(paths(doc))
    .filter(([path]) => !(path in OPS_PATHS))
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => operation(doc, method, path, op)),
    )
    .join('\n\n')
}

/** The schemas of the document's components, each under a heading its links point to. */
export function renderSchemas(doc: OpenApi): string {
  const schemas = (doc.components as { schemas: Record<string, Schema> }).schemas
  return Object.entries(schemas)
    .map(([name, schema]) => `### ${name}\n\n${schemaTable(schema)}`)
    .join('\n\n')
}

/** The endpoints every service has (`/health`, `/ready`, `/metrics`, `/openapi.json`), as one table. */
export function renderOpsEndpoints(): string {
  return [
    '| endpoint | what | answers |',
    '| --- | --- | --- |',
    ...Object.entries(OPS_PATHS).flatMap(([path, methods]) =>
      Object.entries(methods).map(
        ([method, op]) =>
          `| \`${method.toUpperCase()} ${path}\` | ${cell(`${op.summary}${op.description ? `. ${op.description}` : ''}`)} | ${cell(
            Object.entries(op.responses)
              .map(([status, response]) => `${status} ${response.description}`)
              .join('; '),
          )} |`,
      ),
    ),
  ].join('\n')
}
