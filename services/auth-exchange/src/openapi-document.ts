import { buildOpenApiDocument } from '@pf/service-kit'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const oauthError = {
  type: 'object',
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
  required: ['error', 'error_description'],
  additionalProperties: false,
}

/** The exchange's OpenAPI 3.1 document (service contract, "HTTP surfaces"), served at /openapi.json. */
export const exchangeOpenApi = buildOpenApiDocument({
  title: 'pf auth exchange',
  version: '0.1.0',
  description:
    'Interface C of the marketplace integration: a marketplace JWT in, identity-provider tokens out.',
  paths: {
    '/.well-known/jwks.json': {
      get: {
        summary:
          "The exchange's assertion keys (current, then next), when EXCHANGE_SIGNING_KEY is set: what the identity provider verifies its assertions with",
        responses: {
          '200': {
            description: 'a JWKS',
            schema: {
              type: 'object',
              properties: { keys: { type: 'array', items: { type: 'object' } } },
              required: ['keys'],
            },
          },
          '404': { description: 'no assertion keys are set', schema: ref('OAuthError') },
        },
      },
    },
    '/auth/exchange': {
      post: {
        summary: 'Exchange a marketplace JWT for identity-provider tokens',
        security: [{ marketplaceJwt: [] }],
        responses: {
          '200': { description: 'the provider tokens and the user', schema: ref('ExchangeAnswer') },
          '401': { description: 'invalid_token (with WWW-Authenticate: Bearer)', schema: ref('OAuthError') },
          '409': {
            description: 'account_conflict: the holder of the email may not be adopted (ACCOUNT_ADOPTION)',
            schema: ref('OAuthError'),
          },
          '502': { description: 'idp_error: the identity provider refused', schema: ref('OAuthError') },
          '503': {
            description:
              "idp_unavailable, or temporarily_unavailable when the marketplace's signing keys cannot be fetched (with Retry-After)",
            schema: ref('OAuthError'),
          },
        },
      },
    },
    '/auth/logout': {
      post: {
        summary:
          'Revoke a refresh token at the identity provider (EXCHANGE_GRANT=jwt-bearer: the access token, as its answers carry no refresh token)',
        requestBody: {
          schema: {
            type: 'object',
            properties: {
              refresh_token: {
                type: 'string',
                description: 'required, except with EXCHANGE_GRANT=jwt-bearer',
              },
              access_token: { type: 'string', description: 'required with EXCHANGE_GRANT=jwt-bearer' },
            },
          },
        },
        responses: {
          '204': { description: 'revoked (or already unknown to the provider)' },
          '400': { description: 'invalid_request', schema: ref('OAuthError') },
          '502': { description: 'idp_error', schema: ref('OAuthError') },
          '503': { description: 'idp_unavailable', schema: ref('OAuthError') },
        },
      },
    },
  },
  schemas: {
    ExchangeAnswer: {
      type: 'object',
      properties: {
        access_token: { type: 'string' },
        refresh_token: {
          type: 'string',
          description:
            'absent with EXCHANGE_GRANT=jwt-bearer (Keycloak JWT Authorization Grant: no refresh token, a transient session): exchange again when the access token expires',
        },
        token_type: { type: 'string' },
        expires_in: { type: 'integer' },
        id_token: { type: 'string' },
        refresh_expires_in: { type: 'integer', description: 'only with a refresh_token' },
        scope: { type: 'string' },
        user: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            pfUserId: { type: 'string' },
            orgId: { type: 'string' },
            applicationId: { type: 'string' },
            email: { type: 'string' },
            roles: { type: 'array', items: { type: 'string' } },
          },
          required: ['id', 'pfUserId', 'orgId', 'applicationId', 'email', 'roles'],
          additionalProperties: false,
        },
      },
      required: ['access_token', 'token_type', 'expires_in', 'user'],
      additionalProperties: false,
    },
    OAuthError: oauthError,
  },
  securitySchemes: { marketplaceJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
})
