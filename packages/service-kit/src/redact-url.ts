/** Whole words of a parameter's name that make its value a credential (`apiKey`, `X-Amz-Signature`, `sig`). */
const CREDENTIAL_WORDS = new Set([
  'auth',
  'authorization',
  'bearer',
  'cookie',
  'credential',
  'credentials',
  'hmac',
  'jwt',
  'key',
  'otp',
  'pass',
  'passphrase',
  'passwd',
  'password',
  'pw',
  'pwd',
  'secret',
  'session',
  'sig',
  'signature',
  'token',
])
/** The same inside a longer word (`apikey`, `access_token`'s `accesstoken` spelling, `clientsecret`). */
const CREDENTIAL_INSIDE = /token|secret|passw|apikey|credential|signature|session|bearer|auth/

const isCredential = (name: string) => {
  let decoded = name
  try {
    decoded = decodeURIComponent(name)
  } catch {
    // shown as written
  }
  const words = decoded
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
  // OAuth's `code` alone: `countryCode` is no secret.
  if (decoded.toLowerCase() === 'code') return true
  return words.some((word) => CREDENTIAL_WORDS.has(word) || CREDENTIAL_INSIDE.test(word))
}

/** `name=value` in a query or a fragment: the separator before it, its name, its value. */
const PARAMETER = /([?&;#])([^=&;#]*)=([^&;#]*)/g

/**
 * An address as logs, errors, doctor lines and answers may show it: whatever stands before its last `@` (the
 * user and password) is `***`, and so is the value of every query or fragment parameter whose name says it
 * holds a credential (`token`, `apiKey`, `access_token`, `X-Amz-Signature`, `sig`, `password`…); everything
 * else as written, so that the operator still sees which host, path and options are used. Works on what no
 * URL parser accepts (a mistyped setting is shown too), on a prefixed list source (`un-xml:https://…`), and
 * leaves a file path alone.
 *
 * @example
 * redactUrl('https://reader:pw@host/sdn.csv?format=csv&token=abc') // 'https://***@host/sdn.csv?format=csv&token=***'
 * redactUrl('redis://:s3cret@cache:6379/0') // 'redis://***@cache:6379/0'
 */
export function redactUrl(address: string): string {
  const scheme = address.indexOf('://')
  const head = scheme < 0 ? '' : address.slice(0, scheme + 3)
  let rest = scheme < 0 ? address : address.slice(scheme + 3)
  // Without a scheme, only `user:pw@host…` is an address: an @ after a / belongs to a path.
  const userinfo = scheme < 0 ? /^[^/]*@/.exec(rest) : /^.*@/s.exec(rest)
  if (userinfo) rest = `***@${rest.slice(userinfo[0].length)}`
  const query = rest.search(/[?#]/)
  if (query < 0) return head + rest
  const parameters = rest
    .slice(query)
    .replace(PARAMETER, (all, separator: string, name: string, value: string) =>
      value !== '' && isCredential(name) ? `${separator}${name}=***` : all,
    )
  return head + rest.slice(0, query) + parameters
}
