/**
 * The payload of a JWT, without verifying it (for tokens that just came from the provider over TLS); null when
 * the token is not a JWT (an opaque access token).
 *
 * @example
 * decodeJwtPayload(tokens.access_token)?.exp
 */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1]
  if (!part) return null
  try {
    const payload = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown
    return typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : null
  } catch {
    return null
  }
}
