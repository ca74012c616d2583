import { Router, json } from 'express'
import { SpanKind } from '@opentelemetry/api'
import { inSpan, type Logger } from '@pf/service-kit'
import { IdpError, IdpInvalidGrantError, type IdentityProvider } from '@pf/idp-clients'
import { InvalidRequestError, InvalidTokenError } from '../errors'
import type { ExchangeFlow } from '../core/exchange-flow'
import { outcomeOf } from '../http-errors'
import type { ExchangeMetrics } from '../metrics'
import type { MarketplaceVerifier } from '../adapters/marketplace-jwt'

export interface AuthRouterOptions {
  verifyMarketplaceToken: MarketplaceVerifier
  exchange: ExchangeFlow
  /** Revokes what `/auth/logout` is given: a refresh token, or an access token (`logoutToken`). */
  idp: Pick<IdentityProvider, 'revoke' | 'logoutToken'>
  logger: Logger
  metrics: ExchangeMetrics
}

/** `POST /auth/exchange` and `POST /auth/logout`. */
export function createAuthRouter({
  verifyMarketplaceToken,
  exchange,
  idp,
  logger,
  metrics,
}: AuthRouterOptions): Router {
  const { outcomes, duration, idpErrors } = metrics
  const router = Router()

  // One span per exchange; each identity-provider call is a child (@pf/idp-clients' client spans). Its
  // attributes are the path and outcome only: no token, password, email or secret.
  router.post('/auth/exchange', (req, res) =>
    inSpan('auth.exchange', { kind: SpanKind.SERVER }, async (span) => {
      const started = performance.now()
      try {
        const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1]
        if (!bearer) throw new InvalidTokenError('missing bearer token')
        const user = await verifyMarketplaceToken(bearer)
        const { tokens, user: view, path } = await exchange(user, { ip: req.socket.remoteAddress })
        const seconds = (performance.now() - started) / 1000
        span.setAttribute('pf.outcome', path)
        outcomes.inc({ outcome: path })
        duration.observe({ path }, seconds)
        logger.info({ userId: user.userId, path, ms: Math.round(seconds * 1000) }, 'exchange')
        res.set('Cache-Control', 'no-store').json({
          access_token: tokens.access_token,
          refresh_token: tokens.refresh_token,
          token_type: tokens.token_type,
          expires_in: tokens.expires_in,
          id_token: tokens.id_token,
          // Without a refresh token (EXCHANGE_GRANT=jwt-bearer) its lifetime means nothing.
          refresh_expires_in: tokens.refresh_token ? tokens.refresh_expires_in : undefined,
          scope: tokens.scope,
          user: view,
        })
      } catch (error) {
        span.setAttribute('pf.outcome', outcomeOf(error))
        outcomes.inc({ outcome: outcomeOf(error) })
        // An adoption refused by policy is the exchange's own answer (outcome account_conflict), not a failure.
        if (error instanceof IdpError && error.code !== 'ERR_IDP_ACCOUNT_CONFLICT')
          idpErrors.inc({ code: error.code, status: String(error.statusCode ?? 'none') })
        throw error
      }
    }),
  )

  // The token the answers carry: a refresh token (its session ends), or where there is none (EXCHANGE_GRANT
  // jwt-bearer) the access token (revoked).
  const logoutField = idp.logoutToken ?? 'refresh_token'
  router.post('/auth/logout', json({ limit: '16kb' }), async (req, res) => {
    const token = (req.body as Record<string, unknown> | undefined)?.[logoutField]
    if (typeof token !== 'string' || !token) throw new InvalidRequestError(`${logoutField} is required`)
    try {
      await idp.revoke(token)
    } catch (error) {
      // An unknown or already revoked token: the session is gone either way.
      if (!(error instanceof IdpInvalidGrantError)) throw error
    }
    res.status(204).end()
  })

  return router
}
