import type { AddressInfo } from 'node:net'
import express from 'express'
import { SigningKey } from '../emulators/signing-key'
import { listening } from '../lib/listening'

export interface MarketplaceClaims {
  userId: string
  orgId: string
  applicationId: string
  email?: string
  [claim: string]: unknown
}

export interface MarketplaceIssuer {
  url: string
  /** `iss` of its tokens. */
  issuer: string
  /** Where its signing keys are published. */
  jwksUrl: string
  /**
   * A signed marketplace JWT (RS256, with `kid`, `iat`), valid for `expiresInSec` (default 300; `null`: no
   * `exp`, a token that never expires, which the exchange must refuse).
   */
  mint(claims: MarketplaceClaims, options?: { expiresInSec?: number | null }): string
  /** Requests its JWKS endpoint served so far. */
  jwksRequests(): number
  /** `false`: the JWKS endpoint answers 503 (an outage of the marketplace's key publication). */
  setJwksAvailable(available: boolean): void
  /** Replaces the signing key (the old one leaves the JWKS), as a key rotation does. */
  rotateKey(): void
  /** The current key, to forge tokens in tests (e.g. HS256 with its public PEM). */
  key(): SigningKey
  stop(): Promise<void>
}

/**
 * A marketplace JWT issuer for tests and the sandbox: mints tokens with `userId`, `orgId`, `applicationId`,
 * `email` and an expiry (also over HTTP: `POST {url}/mint`), and publishes its keys at
 * `{url}/.well-known/jwks.json`.
 *
 * @example
 * const issuer = await startMarketplaceIssuer()
 * const token = issuer.mint({ userId: 'user_1', orgId: 'org_1', applicationId: 'app_1', email: 'ada@example.com' })
 */
export async function startMarketplaceIssuer({
  issuer: fixedIssuer,
  port = 0,
  host = '127.0.0.1',
}: {
  issuer?: string
  /** Default: a free port. */
  port?: number
  /** Default 127.0.0.1; 0.0.0.0 to serve other containers. */
  host?: string
} = {}): Promise<MarketplaceIssuer> {
  let key = new SigningKey()
  let jwksRequests = 0
  let jwksAvailable = true
  const app = express()
  app.get('/.well-known/jwks.json', (_req, res) => {
    jwksRequests += 1
    if (!jwksAvailable) return void res.status(503).json({ error: 'unavailable' })
    res.json(key.jwks())
  })
  // For `pf-sim token`: a test issuer hands out tokens to whoever asks, on this machine only.
  app.post('/mint', express.json(), (req, res) => {
    const { expiresInSec, ...claims } = req.body as MarketplaceClaims & { expiresInSec?: number }
    if (!claims.userId || !claims.orgId || !claims.applicationId) {
      return void res.status(400).json({ error: 'userId, orgId and applicationId are required' })
    }
    res.json({ token: key.sign({ iss: issuer, sub: claims.userId, ...claims }, expiresInSec ?? 300) })
  })
  const server = await listening(app.listen(port, host))
  const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${(server.address() as AddressInfo).port}`
  const issuer = fixedIssuer ?? url
  return {
    url,
    issuer,
    jwksUrl: `${url}/.well-known/jwks.json`,
    mint: (claims, { expiresInSec = 300 } = {}) =>
      key.sign({ iss: issuer, sub: claims.userId, ...claims }, expiresInSec),
    rotateKey: () => void (key = new SigningKey()),
    jwksRequests: () => jwksRequests,
    setJwksAvailable: (available) => void (jwksAvailable = available),
    key: () => key,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
