import express, { type Response, type Router } from 'express'
import { scoped } from './auth0-management-access'
import { problem } from './auth0-problem'
import { credentialId, type Auth0TenantState, type EmulatedTokenExchangeProfile } from './auth0-tenant-state'

/**
 * The namespaces a `subject_token_type` may not use (configure-custom-token-exchange.mdx, "Create Custom Token
 * Exchange Profile"; the same list in api/authentication/custom-token-exchange/get-token.mdx).
 */
const RESERVED = [
  'http://auth0.com',
  'https://auth0.com',
  'http://okta.com',
  'https://okta.com',
  'urn:ietf',
  'urn:auth0',
  'urn:okta',
]
/** Entity limit policy: 100 Custom Token Exchange Profiles a tenant (entity-limit-policy.mdx). */
const MAX_PROFILES = 100
/** (unconfirmed) bounds of the emulator's own: Auth0 documents none. */
const MAX_NAME = 300
const MAX_TYPE = 1024

const invalidBody = (res: Response, message: string) =>
  problem(res, 400, 'Bad Request', `Payload validation error: ${message}`, 'invalid_body')

/**
 * Why `type` may not be a profile's `subject_token_type`, or undefined: a URI "starting with `https://` or `urn`"
 * outside the reserved namespaces (configure-custom-token-exchange.mdx).
 */
export function subjectTokenTypeProblem(type: unknown): string | undefined {
  if (typeof type !== 'string' || type.length === 0 || type.length > MAX_TYPE)
    return `'subject_token_type' must be a string of 1 to ${MAX_TYPE} characters`
  if (!/^(https:\/\/|urn:)/i.test(type))
    return `'subject_token_type' must be a URI starting with https:// or urn:`
  const lower = type.toLowerCase()
  const reserved = RESERVED.find((prefix) => lower.startsWith(prefix))
  // (unconfirmed) the wording of the refusal; the rule is the documented one.
  if (reserved) return `'subject_token_type' uses the reserved namespace ${reserved}`
  return undefined
}

const nameProblem = (name: unknown) =>
  typeof name !== 'string' || name.length === 0 || name.length > MAX_NAME
    ? `'name' must be a string of 1 to ${MAX_NAME} characters`
    : undefined

/**
 * Management API v2 `/token-exchange-profiles` (Early Access; api/management/v2/token-exchange-profiles/*.mdx and
 * the `auth0` SDK's TokenExchangeProfilesClient): `POST` (create:token_exchange_profiles) `{name,
 * subject_token_type, action_id, type: "custom_authentication"}` → 201 `{id: "tep_…", name, type,
 * subject_token_type, action_id, created_at, updated_at}`; `GET` (read:token_exchange_profiles) with checkpoint
 * paging (`from`, `take` default 50) → `{token_exchange_profiles, next?}`; `GET /{id}` (404); `PATCH /{id}`
 * (update:token_exchange_profiles) `name`, `subject_token_type` only ("you cannot modify the Action ID") → 204;
 * `DELETE /{id}` (delete:token_exchange_profiles) → 204. A `subject_token_type` maps to one profile: a second
 * is a 409 (the SDK documents ConflictError; the message is unconfirmed).
 */
export function createAuth0TokenExchangeProfilesRouter(state: Auth0TenantState): Router {
  const router = express.Router()
  const profiles = state.tokenExchangeProfiles
  const taken = (type: string, except?: string) =>
    [...profiles.values()].some((p) => p.subject_token_type === type && p.id !== except)
  const conflict = (res: Response) =>
    problem(res, 409, 'Conflict', 'A token exchange profile with this subject_token_type already exists')

  router.post(
    '/token-exchange-profiles',
    scoped('create:token_exchange_profiles', (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>
      for (const field of ['name', 'subject_token_type', 'action_id', 'type'])
        if (body[field] === undefined) return invalidBody(res, `'Missing required property: ${field}'.`)
      const wrong =
        nameProblem(body.name) ??
        subjectTokenTypeProblem(body.subject_token_type) ??
        (body.type !== 'custom_authentication' ? `'type' must be custom_authentication` : undefined)
      if (wrong) return invalidBody(res, wrong)
      // (unconfirmed) the answer for an Action that is not there: the profile needs a deployed Action.
      if (!state.actions.has(String(body.action_id)))
        return problem(res, 404, 'Not Found', 'The action does not exist.', 'inexistent_action')
      if (taken(String(body.subject_token_type))) return conflict(res)
      // (unconfirmed) the entity limit's answer.
      if (profiles.size >= MAX_PROFILES)
        return problem(
          res,
          403,
          'Forbidden',
          `At most ${MAX_PROFILES} token exchange profiles`,
          'too_many_entities',
        )
      const at = new Date().toISOString()
      const profile: EmulatedTokenExchangeProfile = {
        id: credentialId('tep'),
        name: String(body.name),
        subject_token_type: String(body.subject_token_type),
        action_id: String(body.action_id),
        type: 'custom_authentication',
        created_at: at,
        updated_at: at,
      }
      profiles.set(profile.id, profile)
      res.status(201).json(profile)
    }),
  )
  router.get(
    '/token-exchange-profiles',
    scoped('read:token_exchange_profiles', (req, res) => {
      const all = [...profiles.values()]
      const start = Math.max(
        0,
        all.findIndex((p) => p.id === req.query.from),
      )
      const take = Math.min(Math.max(Number(req.query.take ?? 50) || 50, 1), 100)
      const next = all[start + take]?.id
      res.json({ token_exchange_profiles: all.slice(start, start + take), ...(next ? { next } : {}) })
    }),
  )
  router.get(
    '/token-exchange-profiles/:id',
    scoped('read:token_exchange_profiles', (req, res) => {
      const profile = profiles.get(String(req.params.id))
      if (!profile) return problem(res, 404, 'Not Found', 'The token exchange profile does not exist.')
      res.json(profile)
    }),
  )
  router.patch(
    '/token-exchange-profiles/:id',
    scoped('update:token_exchange_profiles', (req, res) => {
      const profile = profiles.get(String(req.params.id))
      if (!profile) return problem(res, 404, 'Not Found', 'The token exchange profile does not exist.')
      const body = (req.body ?? {}) as Record<string, unknown>
      const unknown = Object.keys(body).find((key) => key !== 'name' && key !== 'subject_token_type')
      if (unknown) return invalidBody(res, `'Additional properties not allowed: ${unknown}'.`)
      const wrong =
        (body.name !== undefined ? nameProblem(body.name) : undefined) ??
        (body.subject_token_type !== undefined ? subjectTokenTypeProblem(body.subject_token_type) : undefined)
      if (wrong) return invalidBody(res, wrong)
      if (typeof body.subject_token_type === 'string' && taken(body.subject_token_type, profile.id))
        return conflict(res)
      if (typeof body.name === 'string') profile.name = body.name
      if (typeof body.subject_token_type === 'string') profile.subject_token_type = body.subject_token_type
      profile.updated_at = new Date().toISOString()
      res.status(204).end()
    }),
  )
  router.delete(
    '/token-exchange-profiles/:id',
    scoped('delete:token_exchange_profiles', (req, res) => {
      profiles.delete(String(req.params.id))
      res.status(204).end()
    }),
  )
  return router
}
