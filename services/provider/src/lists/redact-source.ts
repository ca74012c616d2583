const URL_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i

/**
 * A list source as answers and logs may show it: a URL without its credentials, query or fragment (a token
 * often rides there), a path as it is.
 *
 * @example
 * redactSource('https://user:pw@host/sdn.csv?token=x') // 'https://host/sdn.csv'
 */
export function redactSource(source: string): string {
  const scheme = URL_SCHEME.exec(source)
  if (!scheme) return source
  try {
    const url = new URL(source)
    return `${url.protocol}//${url.host}${url.pathname}`
  } catch {
    return `${scheme[1]}://(not a valid URL)`
  }
}
