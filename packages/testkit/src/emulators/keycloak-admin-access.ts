import type { NextFunction, Request, Response } from 'express'
import { JWT_AUTHORIZATION_GRANT_FEATURE, jwtGrantAvailable } from './keycloak-jwt-authorization-grant'
import type { KeycloakRealmState } from './keycloak-realm-state'
import { versionAtLeast } from './keycloak-search-query'

/** What the admin token may see of roles (RolePermissions.canView): realm roles, client roles. */
export interface RoleVisibility {
  realmRoles: boolean
  clientRoles: boolean
}

/** What `requireAdminToken` found the caller may see of roles (a master-realm admin: everything). */
export const visibilityOf = (res: Response): RoleVisibility =>
  (res.locals.roleVisibility as RoleVisibility | undefined) ?? { realmRoles: true, clientRoles: true }

const forbidden = (res: Response) => void res.status(403).json({ error: 'HTTP 403 Forbidden' })
const bearerClaims = (state: KeycloakRealmState, req: Request) => {
  const token = /^Bearer\s+(.+)$/i.exec(req.get('authorization') ?? '')?.[1]
  return token ? state.key.verify(token) : null
}

/** The realm-management roles a call below `/admin/realms/{realm}` needs (any one of them). */
function neededRoles(path: string, method: string): string[] {
  // AuthenticationManagementResource: auth.realm().requireViewRealm()
  if (/^(\/roles(-by-id)?\/|\/authentication\/|\/?$)/.test(path)) return ['view-realm', 'manage-realm']
  if (path.startsWith('/clients'))
    return method === 'GET' ? ['view-clients', 'manage-clients', 'query-clients'] : ['manage-clients']
  // IdentityProvidersResource: auth.realm().requireViewIdentityProviders() / requireManageIdentityProviders()
  if (path.startsWith('/identity-provider'))
    return method === 'GET'
      ? ['view-identity-providers', 'manage-identity-providers']
      : ['manage-identity-providers']
  // OrganizationsResource: auth.realm().requireManageRealm()
  if (path.startsWith('/organizations')) return ['manage-realm']
  return method === 'GET' ? ['view-users', 'manage-users', 'query-users'] : ['manage-users']
}

/**
 * The admin API's access check (mounted on `/admin`): a master-realm admin token (any realm), or a realm
 * service account's token (its own realm only) with the realm-management role the call needs, composites
 * expanded (realm-admin holds them all). What its roles let it view of roles is left in
 * `res.locals.roleVisibility` (RolePermissions.canView: realm roles need view-realm or manage-realm, client
 * roles view-clients or manage-clients; role mappings hide what the caller may not view).
 */
export const requireAdminToken =
  (state: KeycloakRealmState) => (req: Request, res: Response, next: NextFunction) => {
    const claims = bearerClaims(state, req)
    if (!claims) return void res.status(401).json({ error: 'HTTP 401 Unauthorized' })
    if (claims.iss === state.issuerOf('master')) return next()
    const own = `/realms/${state.realm}`
    if (claims.iss !== state.issuerOf(state.realm) || !(req.path === own || req.path.startsWith(`${own}/`)))
      return forbidden(res)
    const held = (claims.resource_access as Record<string, { roles?: string[] }> | undefined)?.[
      'realm-management'
    ]?.roles
    const granted = new Set(
      state.roles
        .effective([{ realmRoles: new Set(), clientRoles: { 'realm-management': held ?? [] } }])
        .map((role) => role.name),
    )
    if (!neededRoles(req.path.slice(own.length), req.method).some((role) => granted.has(role)))
      return forbidden(res)
    res.locals.roleVisibility = {
      realmRoles: granted.has('view-realm') || granted.has('manage-realm'),
      clientRoles: granted.has('view-clients') || granted.has('manage-clients'),
    } satisfies RoleVisibility
    next()
  }

/**
 * `GET /admin/serverinfo`: (unconfirmed) only the master realm's admins read the server's version. From 26.5 its
 * `features` list the JWT Authorization Grant (FeatureRepresentation `{name, label, type, enabled,
 * dependencies}`, `name` the Profile.Feature constant as the admin console's useIsFeatureEnabled reads it:
 * `JWT_AUTHORIZATION_GRANT`, a preview feature), and `identityProviders` the provider types it offers.
 */
export const serverInfo =
  (state: KeycloakRealmState, serverVersion: string) => (req: Request, res: Response) => {
    if (bearerClaims(state, req)?.iss !== state.issuerOf('master')) return forbidden(res)
    const grant = versionAtLeast(serverVersion, [26, 5, 0])
    const enabled = state.features.has(JWT_AUTHORIZATION_GRANT_FEATURE)
    res.json({
      systemInfo: { version: serverVersion, serverTime: new Date().toISOString() },
      profileInfo: {
        name: 'community',
        disabledFeatures: grant && !enabled ? ['JWT_AUTHORIZATION_GRANT'] : [],
        previewFeatures: grant ? ['JWT_AUTHORIZATION_GRANT'] : [],
        experimentalFeatures: [],
      },
      features: grant
        ? [
            {
              name: 'JWT_AUTHORIZATION_GRANT',
              label: 'JWT Profile for Oauth 2.0 Authorization Grant',
              type: 'PREVIEW',
              enabled,
              dependencies: [],
            },
          ]
        : [],
      identityProviders: [
        { id: 'oidc', name: 'OpenID Connect v1.0' },
        { id: 'keycloak-oidc', name: 'Keycloak OpenID Connect' },
        { id: 'saml', name: 'SAML v2.0' },
        ...(jwtGrantAvailable(state)
          ? [{ id: 'jwt-authorization-grant', name: 'JWT Authorization Grant' }]
          : []),
      ],
    })
  }
