/**
 * Why a `fetch` got no answer, in words a terminal can show: undici's `fetch failed` hides the socket's error in
 * `cause` (`ECONNREFUSED` with the address and port), so that is what is named: `ECONNREFUSED 127.0.0.1:3009`.
 */
export function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as Error & { cause?: unknown }).cause as
    | (Error & { code?: string; address?: string; port?: number; hostname?: string; errors?: unknown[] })
    | undefined
  if (!cause || typeof cause !== 'object') return error.message
  // A host with several addresses (localhost: ::1 and 127.0.0.1) fails with an AggregateError of each.
  const first = (cause.errors?.[0] ?? cause) as typeof cause
  const code = first.code ?? cause.code
  const where = first.address
    ? `${first.address.includes(':') ? `[${first.address}]` : first.address}${first.port ? `:${first.port}` : ''}`
    : (first.hostname ?? cause.hostname)
  if (code) return where ? `${code} ${where}` : code
  return cause.message || error.message
}
