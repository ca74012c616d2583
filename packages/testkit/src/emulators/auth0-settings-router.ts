import express, { type Request, type Router } from 'express'
import { offsetPage, scoped } from './auth0-management-access'
import { problem } from './auth0-problem'
import { DEFAULT_GRANT_TYPES, type Auth0TenantState, type EmulatedAuth0Client } from './auth0-tenant-state'

/** Auth0's `fields` / `include_fields` (default true): the listed fields only, or all but them. */
function pick(req: Request, item: Record<string, unknown>): Record<string, unknown> {
  const fields = typeof req.query.fields === 'string' ? req.query.fields.split(',') : undefined
  if (!fields) return item
  const include = req.query.include_fields !== 'false'
  return Object.fromEntries(Object.entries(item).filter(([key]) => fields.includes(key) === include))
}

/** An application as `GET /clients/{id}` answers it (the fields the exchange's checks read). */
const clientView = (client: EmulatedAuth0Client) => ({
  client_id: client.clientId,
  name: client.clientId,
  app_type: 'regular_web',
  is_first_party: client.firstParty ?? true,
  oidc_conformant: client.oidcConformant ?? true,
  grant_types: client.grantTypes ?? DEFAULT_GRANT_TYPES,
  ...(client.tokenExchange ? { token_exchange: client.tokenExchange } : {}),
})

/**
 * The tenant's applications and connections as Management API v2 answers them (auth0.com/docs/api/management/v2,
 * "Get a client", "Get all connections"):
 * - `GET /clients/{id}` (read:clients): `{client_id, name, app_type, is_first_party, oidc_conformant, grant_types,
 *   token_exchange?, …}`, 404 `inexistent_client`; `PATCH /clients/{id}` (update:clients) sets `token_exchange`,
 *   `is_first_party`, `oidc_conformant`, `grant_types` (configure-custom-token-exchange.mdx: "Set the
 *   `allow_any_profile_of_type` attribute under `token_exchange` to `["custom_authentication"]`");
 * - `GET /connections?name=` (read:connections): `{id, name, strategy, enabled_clients, …}`, `strategy` `auth0`
 *   for a database connection; a plain array, `{connections, start, limit, total}` with `include_totals=true`
 *   (what the v7 SDK asks for), `{connections, next?}` with checkpoint paging (`from`, `take`).
 */
export function createAuth0SettingsRouter(state: Auth0TenantState): Router {
  const router = express.Router()
  router.get(
    '/clients/:id',
    scoped('read:clients', (req, res) => {
      const client = state.clients.find((c) => c.clientId === req.params.id)
      if (!client) return problem(res, 404, 'Not Found', 'The client does not exist', 'inexistent_client')
      res.json(pick(req, clientView(client)))
    }),
  )
  router.patch(
    '/clients/:id',
    scoped('update:clients', (req, res) => {
      const client = state.clients.find((c) => c.clientId === req.params.id)
      if (!client) return problem(res, 404, 'Not Found', 'The client does not exist', 'inexistent_client')
      const body = (req.body ?? {}) as Record<string, unknown>
      const types = (body.token_exchange as { allow_any_profile_of_type?: unknown } | undefined)
        ?.allow_any_profile_of_type
      if (
        types !== undefined &&
        !(
          Array.isArray(types) &&
          types.every((t) => t === 'custom_authentication' || t === 'on_behalf_of_token_exchange')
        )
      )
        return problem(
          res,
          400,
          'Bad Request',
          'Payload validation error: token_exchange.allow_any_profile_of_type',
          'invalid_body',
        )
      if (body.token_exchange !== undefined)
        client.tokenExchange = body.token_exchange as EmulatedAuth0Client['tokenExchange']
      if (typeof body.is_first_party === 'boolean') client.firstParty = body.is_first_party
      if (typeof body.oidc_conformant === 'boolean') client.oidcConformant = body.oidc_conformant
      if (Array.isArray(body.grant_types)) client.grantTypes = body.grant_types as string[]
      res.json(clientView(client))
    }),
  )
  router.get(
    '/connections',
    scoped('read:connections', (req, res) => {
      const wanted = typeof req.query.name === 'string' ? req.query.name : undefined
      const connections = state.connectionNames
        .filter((name) => wanted === undefined || name === wanted)
        .map((name, index) => ({
          id: `con_${String(index).padStart(16, '0')}`,
          name,
          strategy: state.isDatabase(name) ? 'auth0' : 'google-oauth2',
          enabled_clients: state.clients.map((c) => c.clientId).filter((id) => state.enabledFor(name, id)),
        }))
      if (req.query.take === undefined && req.query.from === undefined)
        return offsetPage(
          req,
          res,
          connections.map((c) => pick(req, c)),
          'connections',
        )
      const start = Math.max(
        0,
        connections.findIndex((c) => c.id === req.query.from),
      )
      const take = Math.min(Number(req.query.take ?? 50) || 50, 100)
      const page = connections.slice(start, start + take)
      const next = connections[start + take]?.id
      res.json({ connections: page.map((c) => pick(req, c)), ...(next ? { next } : {}) })
    }),
  )
  return router
}
