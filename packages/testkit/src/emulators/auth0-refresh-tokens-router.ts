import express, { type Request, type Response, type Router } from 'express'
import { planOnly, scoped, withUser } from './auth0-management-access'
import { problem } from './auth0-problem'
import type { Auth0TenantState, EmulatedRefreshToken } from './auth0-tenant-state'

/** A refresh token as `GET /users/{id}/refresh-tokens` and `GET /refresh-tokens/{id}` describe it. */
const refreshTokenView = (t: EmulatedRefreshToken) => ({
  id: t.id,
  user_id: t.userId,
  client_id: t.clientId,
  created_at: t.created_at,
  ...(t.sessionId ? { session_id: t.sessionId } : {}),
  rotating: false,
  resource_servers: t.audience ? [{ audience: t.audience, scopes: t.scope }] : [],
})

/**
 * `GET /users/{id}/refresh-tokens`: checkpoint paging, `take` (default 50, at most 100) after the id `from`,
 * answering `{tokens, next}`; `next` (the last id of the page) only when more follow (the SDK's `Page` stops on
 * a missing or empty `next`).
 */
function listPage(tokens: EmulatedRefreshToken[], req: Request, res: Response) {
  const take = Math.min(Math.max(Number(req.query.take ?? 50) || 50, 1), 100)
  const from = typeof req.query.from === 'string' ? req.query.from : undefined
  const start = from ? tokens.findIndex((t) => t.id === from) + 1 : 0
  const page = tokens.slice(start, start + take)
  const more = start + take < tokens.length
  res.json({ tokens: page.map(refreshTokenView), ...(more ? { next: page.at(-1)!.id } : {}) })
}

/**
 * The Management API v2 refresh-token calls of Enterprise plans
 * (auth0.com/docs/secure/tokens/manage-refresh-tokens-with-auth0-management-api; elsewhere 403, see
 * `planOnly`), each behind its scope:
 * - `GET`/`DELETE /users/{id}/refresh-tokens` (read:/delete:refresh_tokens): list (paged) or revoke all (202);
 * - `GET`/`DELETE /refresh-tokens/{id}` (read:/delete:refresh_tokens): one token; an unknown id is a 404
 *   (body unconfirmed), a delete answers 202 (unconfirmed: the docs say the request is accepted).
 */
export function createAuth0RefreshTokensRouter(state: Auth0TenantState): Router {
  const router = express.Router()
  const tokensOf = (userId: string) => [...state.refreshTokens].filter(([, t]) => t.userId === userId)
  const perUser = (scope: string, handle: (id: string, req: Request, res: Response) => void) =>
    scoped(
      scope,
      planOnly(
        state,
        withUser(state.users, (_user, id, req, res) => handle(id, req, res)),
      ),
    )
  const byId = (
    scope: string,
    handle: (secret: string, token: EmulatedRefreshToken, res: Response) => void,
  ) =>
    scoped(
      scope,
      planOnly(state, (req, res) => {
        const found = [...state.refreshTokens].find(([, t]) => t.id === req.params.id)
        if (!found)
          return problem(
            res,
            404,
            'Not Found',
            'The refresh token does not exist.',
            'refresh_token_not_found',
          )
        handle(found[0], found[1], res)
      }),
    )

  router.get(
    '/users/:id/refresh-tokens',
    perUser('read:refresh_tokens', (id, req, res) =>
      listPage(
        tokensOf(id).map(([, t]) => t),
        req,
        res,
      ),
    ),
  )
  router.delete(
    '/users/:id/refresh-tokens',
    perUser('delete:refresh_tokens', (id, _req, res) => {
      for (const [secret] of tokensOf(id)) state.refreshTokens.delete(secret)
      res.status(202).end()
    }),
  )
  router.get(
    '/refresh-tokens/:id',
    byId('read:refresh_tokens', (_secret, token, res) => void res.json(refreshTokenView(token))),
  )
  router.delete(
    '/refresh-tokens/:id',
    byId('delete:refresh_tokens', (secret, _token, res) => {
      state.refreshTokens.delete(secret)
      res.status(202).end()
    }),
  )
  return router
}
