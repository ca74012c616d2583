import type { RouteDoc } from '@pf/provider-kit'

const text = { type: 'string' }
const count = { type: 'integer', minimum: 0 }

/** One list in use, as `SanctionsList` minus its entries. */
const listInfo = {
  type: 'object',
  properties: {
    name: text,
    format: text,
    source: text,
    records: count,
    sha256: text,
    version: { type: 'string', description: "the publisher's version when the list states one, else sha256" },
    loadedAt: { type: 'string', format: 'date-time' },
    namesCut: count,
    sublists: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: text, title: text, records: count },
        required: ['name', 'title', 'records'],
        additionalProperties: false,
      },
    },
  },
  required: ['name', 'format', 'source', 'records', 'sha256', 'version', 'loadedAt', 'namesCut'],
  additionalProperties: false,
}

/** `GET /api/lists` in the OpenAPI document: what the screening runs on, and the last refresh. */
export const LISTS_ROUTE: RouteDoc = {
  method: 'get',
  path: '/lists',
  summary: 'The sanctions lists in use and the last refresh',
  description:
    'Per list its name, format, source, records, content hash, version, load time and names cut; the last refresh, with the lists it refused for their counts.',
  responses: {
    '200': {
      description: 'the lists in use',
      schema: {
        type: 'object',
        properties: {
          lists: { type: 'array', items: listInfo },
          lastRefresh: {
            oneOf: [
              { type: 'null' },
              {
                type: 'object',
                properties: {
                  ok: { type: 'boolean' },
                  at: { type: 'string', format: 'date-time' },
                  refused: {
                    type: 'array',
                    items: {
                      type: 'object',
                      properties: { list: text, records: count, held: count, rule: text },
                      required: ['list', 'records', 'rule'],
                      additionalProperties: false,
                    },
                  },
                },
                required: ['ok', 'at'],
                additionalProperties: false,
              },
            ],
          },
        },
        required: ['lists', 'lastRefresh'],
        additionalProperties: false,
      },
    },
  },
}
