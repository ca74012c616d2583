// Auth0 Action, trigger "custom-token-exchange": the tenant side of the identity exchange's
// EXCHANGE_GRANT=token-exchange (README.md beside this file says how to deploy it). The exchange syncs the user
// through the Management API, then presents an assertion it signed (iss = the exchange, sub = the marketplace
// userId, `auth0_user_id` = the tenant user, aud, exp at most 5 minutes after iat, a fresh jti); this Action
// verifies it and sets that user (api.authentication.setUserById), so Auth0 issues the tokens and its post-login
// Actions add their claims.
//
// Vendor sources (Auth0 docs, github.com/auth0/docs-v2):
// - event/api objects: main/docs/actions/reference/custom-token-exchange/custom-token-exchange-{event,api}-object.mdx
// - "use api.access.rejectInvalidSubjectToken whenever the received subject token does not pass strong validation":
//   it counts toward Suspicious IP Throttling (10 failures, then 429 too_many_attempts for the address;
//   main/docs/authenticate/custom-token-exchange/cte-attack-protection.mdx). Every exchange comes from the
//   exchange's own address, so only a forged assertion (a signature that does not verify, or an algorithm the
//   exchange never uses) is rejected that way; anything else (expired, wrong issuer or audience, reused jti, a
//   key not configured yet) is denied (api.access.deny), which throttles no one.
// - Actions should not throw; they deny (main/docs/customize/actions/action-coding-guidelines.mdx).
// - Asymmetric keys, the JWKS cached with api.cache, never `none` (cte-example-use-cases.mdx, "Code samples").
//
// Secrets (event.secrets): ISSUER, AUDIENCE, and PUBLIC_KEYS (the exchange's JWKS as JSON, or one PEM public key)
// or JWKS_URL (where Auth0 can fetch it); optional CLIENT_ID (only that application may exchange).
// No npm dependency: node:crypto and fetch only.
'use strict'

const crypto = require('node:crypto')

/** The claim carrying the tenant's user_id (the exchange's `TOKEN_EXCHANGE_USER_ID_CLAIM`). */
const USER_ID_CLAIM = 'auth0_user_id'
/** exp - iat at most this (Keycloak's default maximum for RFC 7523 assertions, kept for both vendors). */
const MAX_LIFETIME_SECONDS = 300
/** Clock difference tolerated between the exchange and Auth0, on exp and iat. */
const LEEWAY_SECONDS = 30
const JWKS_CACHE_MS = 600_000
const JWKS_TIMEOUT_MS = 5000
const ALGORITHMS = {
  ES256: { keyType: 'ec', curve: 'prime256v1', verifyWith: (key) => ({ key, dsaEncoding: 'ieee-p1363' }) },
  RS256: { keyType: 'rsa', minBits: 2048, verifyWith: (key) => key },
}

/** Not signed by the exchange: counted by Suspicious IP Throttling. */
class Forged extends Error {}
/** Signed, or possibly signed, by the exchange, but not acceptable: denied with `code`. */
class Refused extends Error {
  constructor(message, code = 'invalid_request') {
    super(message)
    this.code = code
  }
}

const base64urlJson = (part, what) => {
  let value
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
  } catch {
    throw new Refused(`subject_token: its ${what} is not base64url JSON`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Refused(`subject_token: its ${what} is not a JSON object`)
  return value
}

function secretsOf(event) {
  const secrets = event.secrets || {}
  for (const name of ['ISSUER', 'AUDIENCE'])
    if (!secrets[name]) throw new Refused(`the Action secret ${name} is not set`, 'server_error')
  if (!secrets.PUBLIC_KEYS && !secrets.JWKS_URL)
    throw new Refused('set the Action secret PUBLIC_KEYS or JWKS_URL', 'server_error')
  return secrets
}

/** The exchange's public keys from PUBLIC_KEYS: a JWKS (`{"keys": [...]}`) or one PEM key (matching any kid). */
function configuredKeys(value) {
  const text = value.trim()
  if (text.startsWith('-----BEGIN')) return [{ key: crypto.createPublicKey(text) }]
  let jwks
  try {
    jwks = JSON.parse(text)
  } catch {
    throw new Refused('the Action secret PUBLIC_KEYS is neither a JWKS nor a PEM key', 'server_error')
  }
  return (jwks.keys || []).map((jwk) => ({
    kid: jwk.kid,
    key: crypto.createPublicKey({ key: jwk, format: 'jwk' }),
  }))
}

/** The keys at JWKS_URL, cached in api.cache (best effort: Auth0 may evict it sooner); refetched for a new kid. */
async function fetchedKeys(url, kid, api) {
  const cached = api.cache.get(`jwks:${url}`)
  const parse = (body) =>
    (JSON.parse(body).keys || []).map((jwk) => ({
      kid: jwk.kid,
      key: crypto.createPublicKey({ key: jwk, format: 'jwk' }),
    }))
  if (cached && cached.value) {
    const keys = parse(cached.value)
    if (keys.some((k) => k.kid === kid)) return keys
  }
  let body
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(JWKS_TIMEOUT_MS) })
    if (!response.ok) throw new Error(`status ${response.status}`)
    body = await response.text()
    parse(body)
  } catch (error) {
    throw new Refused(`the exchange's JWKS could not be read (${error.message})`, 'server_error')
  }
  api.cache.set(`jwks:${url}`, body, { ttl: JWKS_CACHE_MS })
  return parse(body)
}

/** The key `header` names, of the type its algorithm needs. */
async function keyFor(header, secrets, api) {
  const keys = secrets.PUBLIC_KEYS
    ? configuredKeys(secrets.PUBLIC_KEYS)
    : await fetchedKeys(secrets.JWKS_URL, header.kid, api)
  const match = keys.find((k) => k.kid === undefined || k.kid === header.kid)
  // A key the Action does not know yet is a set-up problem (a rotation ahead of PUBLIC_KEYS), not a forgery.
  if (!match)
    throw new Refused(`no public key ${header.kid} among the exchange's keys (rotate PUBLIC_KEYS first)`)
  const algorithm = ALGORITHMS[header.alg]
  const details = match.key.asymmetricKeyDetails || {}
  if (
    match.key.asymmetricKeyType !== algorithm.keyType ||
    (algorithm.curve && details.namedCurve !== algorithm.curve) ||
    (algorithm.minBits && (details.modulusLength || 0) < algorithm.minBits)
  )
    throw new Refused(`key ${header.kid} is not a ${header.alg} key`)
  return match.key
}

function checkClaims(claims, secrets, event, now) {
  const audience = Array.isArray(claims.aud) && claims.aud.length === 1 ? claims.aud[0] : claims.aud
  if (claims.iss !== secrets.ISSUER) throw new Refused('the assertion is not from the configured issuer')
  if (audience !== secrets.AUDIENCE) throw new Refused('the assertion is not for this tenant (aud)')
  if (!Number.isFinite(claims.exp) || !Number.isFinite(claims.iat))
    throw new Refused('exp and iat are required')
  if (claims.exp <= now - LEEWAY_SECONDS) throw new Refused('the assertion has expired')
  if (claims.iat > now + LEEWAY_SECONDS) throw new Refused('the assertion is issued in the future (iat)')
  if (claims.exp - claims.iat > MAX_LIFETIME_SECONDS)
    throw new Refused(`the assertion lives longer than ${MAX_LIFETIME_SECONDS} s`)
  if (typeof claims.jti !== 'string' || claims.jti.length === 0 || claims.jti.length > 256)
    throw new Refused('jti is required (at most 256 characters)')
  if (typeof claims.sub !== 'string' || claims.sub.length === 0) throw new Refused('sub is required')
  const userId = claims[USER_ID_CLAIM]
  if (typeof userId !== 'string' || !/^[^|\s]+\|\S+$/.test(userId) || userId.length > 255)
    throw new Refused(`${USER_ID_CLAIM} must be a tenant user_id (connection|id)`)
  if (secrets.CLIENT_ID && event.client && event.client.client_id !== secrets.CLIENT_ID)
    throw new Refused('this application may not exchange assertions', 'unauthorized_client')
}

/** The assertion's claims once everything holds; throws Forged or Refused. */
async function verifiedClaims(event, api) {
  const secrets = secretsOf(event)
  const token = String((event.transaction && event.transaction.subject_token) || '')
  const parts = token.split('.')
  if (parts.length !== 3 || token.length > 16_384) throw new Refused('subject_token is not a compact JWS')
  const header = base64urlJson(parts[0], 'header')
  const claims = base64urlJson(parts[1], 'payload')
  // `none`, HS256 (a public key used as an HMAC secret) and the rest: the exchange signs with ES256 or RS256 only.
  if (!Object.prototype.hasOwnProperty.call(ALGORITHMS, header.alg))
    throw new Forged(`algorithm ${String(header.alg)} is not accepted`)
  const key = await keyFor(header, secrets, api)
  const signed = Buffer.from(`${parts[0]}.${parts[1]}`)
  const signature = Buffer.from(parts[2], 'base64url')
  if (!crypto.verify('sha256', signed, ALGORITHMS[header.alg].verifyWith(key), signature))
    throw new Forged('the signature does not verify')
  const now = Math.floor(Date.now() / 1000)
  checkClaims(claims, secrets, event, now)
  // A jti is used once: remembered until the assertion expires (api.cache is best effort; exp bounds a replay).
  const seen = `jti:${claims.iss}:${claims.jti}`
  if (api.cache.get(seen)) throw new Refused('the assertion was already used (jti)')
  api.cache.set(seen, '1', { expires_at: (claims.exp + LEEWAY_SECONDS) * 1000 })
  return claims
}

/**
 * @param {Event} event - Details about the incoming token exchange request.
 * @param {CustomTokenExchangeAPI} api - Methods and utilities to define token exchange process.
 */
exports.onExecuteCustomTokenExchange = async (event, api) => {
  let claims
  try {
    claims = await verifiedClaims(event, api)
  } catch (error) {
    if (error instanceof Forged) return api.access.rejectInvalidSubjectToken(error.message)
    if (error instanceof Refused) return api.access.deny(error.code, error.message)
    return api.access.deny('server_error', `the assertion could not be checked (${error.message})`)
  }
  api.authentication.setUserById(claims[USER_ID_CLAIM])
}

// For the tests only (Auth0 runs `onExecuteCustomTokenExchange` alone).
exports.USER_ID_CLAIM = USER_ID_CLAIM
exports.MAX_LIFETIME_SECONDS = MAX_LIFETIME_SECONDS
