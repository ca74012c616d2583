import express, { type Response, type Router } from 'express'
import { withUser } from './keycloak-admin-user'
import type { KeycloakRealmState } from './keycloak-realm-state'

/**
 * Groups of one realm, under `/admin/realms/{realm}` (UserResource.java, GroupsResource.java): `GET
 * /users/{id}/groups` and `/groups/count` (groupMembership, getGroupMembershipCount), `PUT
 * /users/{id}/groups/{groupId}` (joinGroup), `POST`/`GET /groups`, `DELETE /groups/{id}`.
 */
export function createKeycloakGroupRouter(state: KeycloakRealmState): Router {
  const router = express.Router({ mergeParams: true })
  const notFound = (res: Response, error: string) => void res.status(404).json({ error })
  const groupView = (id: string) => {
    const group = state.groups.get(id)
    return group && { id: group.id, name: group.name, path: `/${group.name}`, subGroups: [] }
  }

  router.get(
    '/users/:id/groups',
    withUser(state, (user, _req, res) => void res.json(user.groups.map(groupView).filter(Boolean))),
  )
  router.get(
    '/users/:id/groups/count',
    withUser(state, (user, _req, res) => void res.json({ count: user.groups.length })),
  )
  router.put(
    '/users/:id/groups/:groupId',
    withUser(state, (user, req, res) => {
      const groupId = String(req.params.groupId)
      if (!state.groups.has(groupId)) return notFound(res, 'Group not found')
      if (!user.groups.includes(groupId)) user.groups.push(groupId)
      res.status(204).end()
    }),
  )
  router.post('/groups', (req, res) => {
    const name = (req.body as { name?: unknown }).name
    if (typeof name !== 'string' || !name)
      return void res.status(400).json({ errorMessage: 'Group name is missing' })
    if ([...state.groups.values()].some((g) => g.name === name))
      return void res.status(409).json({ errorMessage: `Top level group named '${name}' already exists.` })
    const group = state.addGroup({ name })
    res.status(201).location(`${state.url()}/admin/realms/${state.realm}/groups/${group.id}`).end()
  })
  router.get('/groups', (_req, res) => {
    res.json([...state.groups.keys()].map(groupView))
  })
  router.delete('/groups/:groupId', (req, res) => {
    const groupId = String(req.params.groupId)
    if (!state.groups.delete(groupId)) return notFound(res, 'Could not find group by id')
    for (const user of state.users.values()) user.groups = user.groups.filter((id) => id !== groupId)
    res.status(204).end()
  })
  return router
}
