import { decodeJwtPayload } from '../decode-jwt-payload'

export interface CachedToken {
  token: string
  /** Epoch milliseconds. */
  expiresAt: number
}

/**
 * Caches a token until `leewayMs` before it expires, and shares one in-flight request among concurrent
 * callers, so a hundred concurrent exchanges cause one token request.
 */
export class TokenCache {
  private current: CachedToken | undefined
  private pending: Promise<CachedToken> | undefined

  constructor(
    private readonly fetchToken: () => Promise<CachedToken>,
    private readonly leewayMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<string> {
    if (this.current && this.current.expiresAt - this.leewayMs > this.now()) return this.current.token
    this.pending ??= this.fetchToken()
      .then((fresh) => (this.current = fresh))
      .finally(() => {
        this.pending = undefined
      })
    return (await this.pending).token
  }

  /** Forget the token (the provider refused it). */
  invalidate(): void {
    this.current = undefined
  }
}

/** `exp` of a JWT in epoch milliseconds, if the token is a JWT that has one. */
export function jwtExpiry(token: string): number | undefined {
  const exp = decodeJwtPayload(token)?.exp
  return typeof exp === 'number' ? exp * 1000 : undefined
}
