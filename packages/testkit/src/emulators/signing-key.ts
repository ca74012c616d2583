import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto'
import jwt from 'jsonwebtoken'

interface KeyPair {
  privateKey: KeyObject
  publicKey: KeyObject
}
/** Where a test runner may hand out key pairs made ahead (the repository's Jest setup does: generating one costs
 * about a quarter of a CPU second); it answers undefined once it has none left. */
const MADE_AHEAD = Symbol.for('pf.testkit.signingKeyPairs')
const keyPair = (): KeyPair =>
  (globalThis as { [MADE_AHEAD]?: () => KeyPair | undefined })[MADE_AHEAD]?.() ??
  generateKeyPairSync('rsa', { modulusLength: 2048 })

/** An RS256 key pair with a `kid`, signing JWTs and publishing its JWKS, like an identity provider's. */
export class SigningKey {
  readonly kid = randomUUID()
  private readonly privateKey: KeyObject
  private readonly publicKey: KeyObject

  constructor() {
    const { privateKey, publicKey } = keyPair()
    this.privateKey = privateKey
    this.publicKey = publicKey
  }

  /** A signed JWT; `expiresInSec` sets `exp` (`null`: a token without `exp`). */
  sign(payload: Record<string, unknown>, expiresInSec: number | null): string {
    return jwt.sign(payload, this.privateKey, {
      algorithm: 'RS256',
      keyid: this.kid,
      ...(expiresInSec === null ? {} : { expiresIn: expiresInSec }),
    })
  }

  /** Verifies a JWT signed by this key; null when it is not valid. */
  verify(token: string): Record<string, unknown> | null {
    try {
      return jwt.verify(token, this.publicKey, { algorithms: ['RS256'] }) as Record<string, unknown>
    } catch {
      return null
    }
  }

  /** `{ keys: [...] }` with this key as a JWK. */
  jwks(): { keys: Record<string, unknown>[] } {
    return {
      keys: [{ ...this.publicKey.export({ format: 'jwk' }), kid: this.kid, use: 'sig', alg: 'RS256' }],
    }
  }

  /** The public key as PEM (what a JWKS client hands to jsonwebtoken). */
  publicPem(): string {
    return this.publicKey.export({ format: 'pem', type: 'spki' }).toString()
  }
}
