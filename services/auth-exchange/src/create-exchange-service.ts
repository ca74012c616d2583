import type { Express } from 'express'
import type { Registry } from 'prom-client'
import type { Logger } from '@pf/service-kit'
import type { ExchangeConfig } from './config'
import { createApp } from './create-app'
import { createExchanger } from './exchange/create-exchanger'
import { WarmCache } from './exchange/warm-cache'
import { createRealmProvider } from './identity/create-realm-provider'
import { createTenantProvider } from './identity/create-tenant-provider'
import { createMarketplaceVerifier } from './marketplace-jwt'

/** The whole service from its configuration: provider adapter, warm cache, marketplace verifier, app. */
export function createExchangeService(
  config: ExchangeConfig,
  { logger, registry }: { logger: Logger; registry: Registry },
): Express {
  const idp =
    config.idp.style === 'realm'
      ? createRealmProvider(config.idp.realm, config.idpTimeoutMs)
      : createTenantProvider(config.idp.tenant, config.idpTimeoutMs)
  return createApp({
    verifyMarketplaceToken: createMarketplaceVerifier({
      ...config.marketplace,
      applicationId: config.applicationId,
    }),
    exchange: createExchanger(
      idp,
      new WarmCache(config.warmCache.ttlSeconds * 1000, config.warmCache.maxEntries),
    ),
    idp,
    jwksUrl: config.marketplace.jwksUrl,
    logger,
    registry,
  })
}
