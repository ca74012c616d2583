import express, { type Response, type Router } from 'express'
import { withUser } from './auth0-management-access'
import { problem } from './auth0-problem'
import type { Auth0TenantState, EmulatedAuth0User } from './auth0-tenant-state'
import { searchUsers } from './auth0-user-search'

type Body = Record<string, unknown>

const badRequest = (res: Response, message: string, errorCode?: string) =>
  problem(res, 400, 'Bad Request', message, errorCode)

const strongEnough = (password: unknown): password is string =>
  typeof password === 'string' &&
  password.length >= 8 &&
  /[a-z]/.test(password) &&
  /[A-Z]/.test(password) &&
  /\d/.test(password) &&
  /[^A-Za-z0-9]/.test(password)

/** `POST /users`: in a database connection, an email unique per connection, a password the policy accepts. */
function createUser(state: Auth0TenantState, body: Body, res: Response) {
  if (typeof body.connection !== 'string' || !state.connectionNames.includes(body.connection))
    return badRequest(res, 'The connection does not exist.', 'inexistent_connection')
  if (!state.isDatabase(body.connection))
    return badRequest(
      res,
      'Users can only be created in database or passwordless connections.',
      'operation_not_supported',
    )
  if (typeof body.email !== 'string')
    return badRequest(res, 'Payload validation error: Missing required property: email.', 'invalid_body')
  if (!strongEnough(body.password)) return badRequest(res, 'PasswordStrengthError: Password is too weak')
  const email = body.email.toLowerCase()
  // An email is unique per connection, not per tenant.
  if ([...state.users.values()].some((u) => u.email === email && u.connection === body.connection))
    return problem(res, 409, 'Conflict', 'The user already exists.', 'auth0_idp_error')
  const user = state.addUser(
    {
      email,
      password: body.password,
      connection: body.connection,
      email_verified: body.email_verified === true,
      app_metadata: (body.app_metadata as Record<string, unknown>) ?? {},
    },
    state.searchLag(),
  )
  res.status(201).json(state.view(user))
}

/** `PATCH /users/{id}`: a password only with its database connection named; `app_metadata` merged. */
function updateUser(state: Auth0TenantState, user: EmulatedAuth0User, body: Body, res: Response) {
  if (body.password !== undefined) {
    // A password lives in a database connection, and the update has to name it.
    if (typeof body.connection !== 'string')
      return badRequest(
        res,
        'Payload validation error: connection is required when updating password.',
        'invalid_body',
      )
    if (body.connection !== user.connection || !state.isDatabase(user.connection))
      return badRequest(
        res,
        'Cannot update password for non-database connections.',
        'operation_not_supported',
      )
    if (!strongEnough(body.password)) return badRequest(res, 'PasswordStrengthError: Password is too weak')
    user.password = body.password
  }
  if (body.app_metadata && typeof body.app_metadata === 'object') {
    // First-level merge; null deletes a key.
    for (const [name, value] of Object.entries(body.app_metadata as Record<string, unknown>)) {
      if (value === null) delete user.app_metadata[name]
      else user.app_metadata[name] = value
    }
  }
  if (typeof body.email === 'string') user.email = body.email.toLowerCase()
  state.indexForSearch(user)
  res.json(state.view(user))
}

/**
 * Users in the Management API v2: `GET /users` (the lagging search, see `searchUsers`), `GET /users-by-email`
 * and `GET /users/{id}` (immediately consistent), `POST /users`, `PATCH` and `DELETE /users/{id}`. A new
 * password leaves the user's refresh tokens alive.
 */
export function createAuth0UsersRouter(state: Auth0TenantState): Router {
  const router = express.Router()
  router.get('/users', (req, res) => searchUsers(state, req, res))
  // Immediately consistent, every connection (the caller filters on identities[].connection).
  router.get('/users-by-email', (req, res) => {
    const email = req.query.email
    if (typeof email !== 'string' || !email)
      return badRequest(
        res,
        'Query validation error: Missing required property: email.',
        'invalid_query_string',
      )
    res.json([...state.users.values()].filter((u) => u.email === email.toLowerCase()).map(state.view))
  })
  router.post('/users', (req, res) => createUser(state, req.body as Body, res))
  router.get(
    '/users/:id',
    withUser(state.users, (user, _id, _req, res) => void res.json(state.view(user))),
  )
  router.delete('/users/:id', (req, res) => {
    state.deleteUser(req.params.id)
    res.status(204).end()
  })
  router.patch(
    '/users/:id',
    withUser(state.users, (user, _id, req, res) => updateUser(state, user, req.body as Body, res)),
  )
  return router
}
