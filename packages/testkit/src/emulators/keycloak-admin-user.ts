import type { Request, Response } from 'express'
import type { EmulatedKeycloakUser, KeycloakRealmState } from './keycloak-realm-state'

/** Handles a call on the user of `:id`, or answers 404 "User not found" (UserResource). */
export const withUser =
  (state: KeycloakRealmState, handle: (user: EmulatedKeycloakUser, req: Request, res: Response) => void) =>
  (req: Request, res: Response) => {
    const user = state.users.get(String(req.params.id))
    if (!user) return void res.status(404).json({ error: 'User not found' })
    handle(user, req, res)
  }
