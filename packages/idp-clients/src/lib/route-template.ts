// Every fixed path segment of the Keycloak and Auth0 routes these clients call (the rest are realm names, ids,
// role names: values, shown as `{}`). Anything not listed is a value, so a new route can only hide a word, never
// show a value (an id, an email) in a span.
const FIXED = new Set(
  (
    'admin api auth authentication-methods certs clients composite composites consents count credentials ' +
    'device-credentials federated-identity groups jwks.json .well-known logout me members oauth ' +
    'offline-sessions openid-configuration openid-connect organizations permissions profile protocol realm realms ' +
    'refresh-tokens reset-password revoke role-mappings roles roles-by-id serverinfo sessions token users ' +
    'users-by-email v2'
  ).split(' '),
)

/**
 * The route of a request URL as a template, for spans: the query string dropped (it holds searches by email),
 * every segment that is not a fixed word of the vendors' routes shown as `{}`.
 *
 * @example
 * routeTemplate('/admin/realms/acme/users/8f1c?briefRepresentation=true') // '/admin/realms/{}/users/{}'
 */
export function routeTemplate(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? ''
  return path
    .split('/')
    .map((segment) => (segment === '' || FIXED.has(segment) ? segment : '{}'))
    .join('/')
}
