import { routeTemplate } from '../src/lib/route-template'

describe('routeTemplate (span names of identity-provider calls, issue 26)', () => {
  it.each([
    [
      '/admin/realms/acme/users/8f1c-uuid/role-mappings/realm',
      '/admin/realms/{}/users/{}/role-mappings/realm',
    ],
    ['/admin/realms/acme/users?email=jane%40example.com&exact=true', '/admin/realms/{}/users'],
    ['/api/v2/users/auth0%7C123/roles', '/api/v2/users/{}/roles'],
    ['/api/v2/users-by-email?email=jane@example.com', '/api/v2/users-by-email'],
    ['/realms/pf/protocol/openid-connect/token', '/realms/{}/protocol/openid-connect/token'],
    ['/oauth/token', '/oauth/token'],
  ])('%s is %s: values and the query string never show', (url, template) => {
    expect(routeTemplate(url)).toBe(template)
  })

  it('shows an unknown segment as a value, so an email in a path never reaches a span', () => {
    expect(routeTemplate('/somewhere/jane@example.com')).toBe('/{}/{}')
  })
})
