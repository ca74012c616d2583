import { SIGNATURE_HEADER } from '@pf/signing'
import { WEBHOOK_EVENT_DATA_SCHEMAS, WebhookEnvelopeSchema } from '@pf/schemas'
import { buildOpenApiDocument } from '@pf/service-kit'

const error = {
  type: 'object',
  properties: { error: { type: 'string' } },
  required: ['error'],
  additionalProperties: false,
}
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/** The receiver's OpenAPI 3.1 document, for the configured webhook path; served at /openapi.json. */
export function receiverOpenApi(path: string) {
  return buildOpenApiDocument({
    title: 'pf webhook receiver',
    version: '0.1.0',
    description:
      'Interface B of the marketplace integration: signed platform events, stored durably and deduplicated by webhookId before the 200.',
    paths: {
      [path]: {
        post: {
          summary: 'Receive a platform webhook',
          parameters: [
            {
              name: SIGNATURE_HEADER,
              in: 'header',
              required: true,
              description: 'lowercase hex HMAC-SHA256 of the raw body, keyed by the webhook secret',
              schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
            },
          ],
          requestBody: { schema: ref('WebhookEnvelope') },
          responses: {
            '200': {
              description:
                'stored for the worker, a known webhookId, or quarantined (invalid data, an unknown kind, a timestamp out of the window): acknowledged',
              schema: {
                type: 'object',
                properties: { received: { const: true } },
                required: ['received'],
                additionalProperties: false,
              },
            },
            '400': {
              description: 'signed, but not a JSON object, without a usable webhookId, or nested too deep',
              schema: ref('Error'),
            },
            '401': { description: 'missing or wrong signature', schema: ref('Error') },
            '413': { description: 'body too large', schema: ref('Error') },
            '503': { description: 'Redis did not confirm in time: retry later', schema: ref('Error') },
          },
        },
      },
    },
    schemas: {
      WebhookEnvelope: WebhookEnvelopeSchema,
      ...Object.fromEntries(
        Object.entries(WEBHOOK_EVENT_DATA_SCHEMAS).map(([kind, schema]) => [
          `${kind.replace('.', '_')}_data`,
          schema,
        ]),
      ),
      Error: error,
    },
  })
}
