import express, { type Express } from 'express'
import type { Registry } from 'prom-client'
import type { IdentityProvider } from '@pf/idp-clients'
import {
  createErrorHandler,
  createOpsRouter,
  openApiRoute,
  type Logger,
  type OpsSettings,
} from '@pf/service-kit'
import type { ExchangeFlow } from './core/exchange-flow'
import type { MarketplaceVerifier } from './adapters/marketplace-jwt'
import { EXCHANGE_ERRORS, retryAfterOf, toOAuthBody } from './http-errors'
import type { ExchangeMetrics } from './metrics'
import { exchangeOpenApi } from './openapi-document'
import { createAuthRouter } from './routes/create-auth-router'

export interface ExchangeAppInput {
  /** `READY_CACHE_MS`, `METRICS_PORT`. */
  config: { ops?: OpsSettings }
  deps: {
    verifyMarketplaceToken: MarketplaceVerifier
    exchange: ExchangeFlow
    idp: IdentityProvider
    /** The assertion keys' JWKS (current and next), when keys are set; else `/.well-known/jwks.json` is 404. */
    jwks?: () => { keys: object[] }
    logger: Logger
    registry: Registry
    metrics: ExchangeMetrics
    /** Resolves when the marketplace JWKS and the identity provider answer. */
    ready: () => Promise<void>
  }
}

/**
 * The exchange's Express app: `POST /auth/exchange`, `POST /auth/logout`, `GET /.well-known/jwks.json` (with
 * assertion keys), and `/health`, `/ready` (the
 * marketplace JWKS and the identity provider answer), `/metrics`. Errors answer `{error, error_description}`.
 */
export function createApp({ config: { ops }, deps }: ExchangeAppInput): Express {
  const { verifyMarketplaceToken, exchange, idp, jwks, logger, registry, metrics, ready } = deps
  const app = express()
  app.disable('x-powered-by')
  app.use(createOpsRouter({ registry, ready, logger, ops }))
  app.get('/openapi.json', openApiRoute(exchangeOpenApi))
  // The identity provider loads these to verify the exchange's assertions; a short cache, as rotation publishes
  // the next key well before it signs.
  if (jwks)
    app.get(
      '/.well-known/jwks.json',
      (_req, res) => void res.set('Cache-Control', 'public, max-age=300').json(jwks()),
    )
  app.use(createAuthRouter({ verifyMarketplaceToken, exchange, idp, logger, metrics }))
  app.use(
    (_req, res) => void res.status(404).json({ error: 'not_found', error_description: 'no such endpoint' }),
  )
  app.use(
    createErrorHandler({
      logger,
      table: EXCHANGE_ERRORS,
      toBody: toOAuthBody,
      headersOf: retryAfterOf,
    }),
  )
  return app
}
