import { createHash } from 'node:crypto'
import type { Express } from 'express'
import type { Registry } from 'prom-client'
import { createIdentityProvider, emailOf, IdpUnavailableError } from '@pf/idp-clients'
import { createMetricsRegistry, type Logger, type RunnableService } from '@pf/service-kit'
import { createMarketplaceVerifier } from './adapters/marketplace-jwt'
import type { ExchangeConfig } from './config'
import { createApp } from './create-app'
import { createExchangeFlow } from './core/exchange-flow'
import { WarmCache } from './core/warm-cache'
import { createExchangeMetrics } from './metrics'
import { providerGrantOf } from './provider-grant'

/**
 * The exchange as `serve` runs it: `ready()` resolves when the marketplace JWKS and the identity provider
 * answer; `start()` checks what can be checked (a realm older than Keycloak 24, or whose version cannot be read,
 * rejects; a realm whose users may write their own marketplace attributes is logged as an error; a provider that
 * does not answer yet is only reported: readiness stays false until it does);
 * `close()` has nothing to release (nothing is held open between requests).
 */
export interface Exchange extends RunnableService {
  app: Express
}

/** The whole exchange from its configuration: identity provider, warm cache, marketplace verifier, app. */
export function createExchange(
  config: ExchangeConfig,
  { logger, registry = createMetricsRegistry('pf_exchange') }: { logger: Logger; registry?: Registry },
): Exchange {
  const { signInGrant, jwks } = providerGrantOf(config.grant)
  const idp = createIdentityProvider(config.idp, {
    timeoutMs: config.idpTimeoutMs,
    adoption: config.adoption,
    signInGrant,
  })
  const ready = async () => {
    const jwks = await fetch(config.marketplace.jwksUrl, { signal: AbortSignal.timeout(2000) })
    await jwks.body?.cancel()
    if (!jwks.ok) throw new Error(`marketplace JWKS answered ${jwks.status}`)
    await idp.ping()
  }
  const metrics = createExchangeMetrics(registry)
  const app = createApp({
    config,
    deps: {
      verifyMarketplaceToken: createMarketplaceVerifier({
        ...config.marketplace,
        applicationId: config.applicationId,
      }),
      exchange: createExchangeFlow(
        idp,
        new WarmCache(config.warmCache.ttlSeconds * 1000, config.warmCache.maxEntries),
        {
          deadlineMs: config.deadlineMs,
          // An account changed hands: one line for the audit trail, the email only as its hash.
          onAdopted: (user, synced) => {
            metrics.adoptions.inc()
            logger.info(
              {
                event: 'account_adopted',
                pfUserId: user.userId,
                idpUserId: synced.id,
                emailSha256: createHash('sha256').update(emailOf(user).toLowerCase()).digest('hex'),
              },
              'account adopted: its sessions and refresh tokens were ended',
            )
          },
        },
      ),
      idp,
      jwks,
      logger,
      registry,
      metrics,
      ready,
    },
  })
  const start = async () => {
    try {
      // The service still starts (as before the check existed), and says it at every start until fixed.
      for (const { check, problem, fix } of await idp.checkAtStart())
        logger.error(
          { event: 'idp_setup_problem', check, problem, fix },
          `identity provider set-up: ${check}: ${problem} (fix: ${fix})`,
        )
    } catch (error) {
      if (error instanceof IdpUnavailableError) {
        logger.warn(
          { err: error.message },
          'identity provider not reachable at start; checked again on first use',
        )
        return
      }
      throw error
    }
  }
  return { app, registry, ready, start, close: async () => {} }
}
