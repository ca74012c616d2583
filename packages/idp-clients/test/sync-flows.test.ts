import { IdpConflictError, IdpMisconfiguredError, type MarketplaceUser } from '@pf/idp-clients'
import type { KeycloakUser } from '../src/realm/realm-types'
import { syncRealmUser, type RealmAdminApi } from '../src/realm/sync-realm-user'
import type { Auth0User } from '../src/tenant/tenant-types'
import { syncTenantUser, type TenantManagementApi } from '../src/tenant/sync-tenant-user'

// The sync decisions without sockets: in-memory admin APIs that record every call.
const user: MarketplaceUser = { userId: 'u1', orgId: 'o1', applicationId: 'app_1', email: 'u1@example.com' }

function realmApi(initial: KeycloakUser[] = [], { dropAttributes = false } = {}) {
  const users = new Map(initial.map((u) => [u.id, structuredClone(u)]))
  const calls: string[] = []
  const api: RealmAdminApi = {
    async findUser(query) {
      calls.push(`find ${JSON.stringify(query)}`)
      return (
        [...users.values()].find((u) =>
          'username' in query ? u.username === query.username : u.email === query.email,
        ) ?? null
      )
    },
    async getUser(id) {
      return structuredClone(users.get(id)!)
    },
    async createUser(body) {
      calls.push('create')
      if ([...users.values()].some((u) => u.email === body.email))
        throw new IdpConflictError('conflict (409)')
      const id = `id-${users.size + 1}`
      const attributes = dropAttributes ? undefined : (body.attributes as KeycloakUser['attributes'])
      users.set(id, { id, username: String(body.username), email: String(body.email), attributes })
      return id
    },
    async updateUser(id, body) {
      calls.push(`update ${Object.keys(body).join(',')}`)
      users.set(id, { ...users.get(id)!, ...body })
    },
    async resetPassword() {
      calls.push('reset-password')
    },
    async assignRealmRole(_id, role) {
      calls.push(`role ${role}`)
    },
  }
  return { api, users, calls }
}

describe('syncRealmUser (spec, C1 steps 2-3)', () => {
  it('creates pf-<userId> with the marketplace attributes, then assigns pf-user', async () => {
    const { api, users, calls } = realmApi()
    const synced = await syncRealmUser(api, 'pf', user, 'pw')
    expect(synced).toEqual({ id: 'id-1', username: 'pf-u1', created: true, adopted: false })
    expect(users.get('id-1')?.attributes).toEqual({
      pfUserId: ['u1'],
      orgId: ['o1'],
      pfApplicationId: ['app_1'],
    })
    expect(calls).toEqual(['find {"username":"pf-u1"}', 'create', 'role pf-user'])
  })

  it("merges changed attributes into the stored set, keeping other systems' attributes", async () => {
    const stored = {
      id: 'k1',
      username: 'pf-u1',
      attributes: { pfUserId: ['u1'], orgId: ['old'], crm: ['42'] },
    }
    const { api, users } = realmApi([stored])
    await syncRealmUser(api, 'pf', user, 'pw')
    expect(users.get('k1')?.attributes).toEqual({
      pfUserId: ['u1'],
      orgId: ['o1'],
      pfApplicationId: ['app_1'],
      crm: ['42'],
    })
  })

  it('fails with ERR_IDP_MISCONFIGURED when the realm silently drops the attributes (user profile)', async () => {
    const { api } = realmApi([], { dropAttributes: true })
    await expect(syncRealmUser(api, 'pf', user, 'pw')).rejects.toBeInstanceOf(IdpMisconfiguredError)
  })
})

function tenantApi(initial: Auth0User[] = []) {
  const users = new Map(initial.map((u) => [u.user_id, structuredClone(u)]))
  const calls: string[] = []
  const api: TenantManagementApi = {
    async searchUsers(query) {
      calls.push(`search ${query}`)
      return [...users.values()].filter(
        (u) =>
          query.includes(`pfUserId:"${String(u.app_metadata?.pfUserId)}"`) ||
          query.includes(`email:"${u.email}"`),
      )
    },
    async createUser(body) {
      calls.push('create')
      if ([...users.values()].some((u) => u.email === body.email))
        throw new IdpConflictError('conflict (409)')
      const created = {
        user_id: `auth0|${users.size + 1}`,
        email: String(body.email),
        app_metadata: body.app_metadata as Record<string, unknown>,
      }
      users.set(created.user_id, created)
      return created
    },
    async patchUser(id, body) {
      calls.push(`patch ${Object.keys(body).join(',')}`)
      users.set(id, { ...users.get(id)!, ...(body as Partial<Auth0User>) })
    },
    async assignRole(_id, role) {
      calls.push(`role ${role}`)
    },
  }
  return { api, users, calls }
}

describe('syncTenantUser (spec, C2 steps 2-3)', () => {
  it('creates the user in the connection with scalar app_metadata, then assigns pf-user', async () => {
    const { api, users, calls } = tenantApi()
    const synced = await syncTenantUser(api, 'Username-Password-Authentication', user, 'Pf!pw')
    expect(synced).toMatchObject({ id: 'auth0|1', username: 'u1@example.com', created: true })
    expect(users.get('auth0|1')?.app_metadata).toEqual({
      pfUserId: 'u1',
      orgId: 'o1',
      pfApplicationId: 'app_1',
    })
    expect(calls).toEqual(['search app_metadata.pfUserId:"u1"', 'create', 'role pf-user'])
  })

  it('patches app_metadata only when it changed', async () => {
    const same = {
      user_id: 'auth0|9',
      email: 'u1@example.com',
      app_metadata: { pfUserId: 'u1', orgId: 'o1', pfApplicationId: 'app_1' },
    }
    const { api, calls } = tenantApi([same])
    await syncTenantUser(api, 'db', user, 'Pf!pw')
    expect(calls).toEqual(['search app_metadata.pfUserId:"u1"'])
  })
})
