import { IdpInvalidGrantError, type IdpTokens, type MarketplaceUser } from '@pf/idp-clients'
import { createExchangeFlow, type ExchangeFlowProvider } from '../src/core/exchange-flow'
import { WarmCache } from '../src/core/warm-cache'

// The exchange flow without sockets: a provider that counts its calls and can forget a user's password.
function fakeProvider() {
  const calls = { sync: 0, signIn: 0 }
  let passwordValid = true
  const grant = async (): Promise<IdpTokens> => {
    calls.signIn += 1
    if (!passwordValid)
      throw new IdpInvalidGrantError('grant refused (401 invalid_grant)', { statusCode: 401 })
    return { access_token: 'opaque', token_type: 'Bearer', expires_in: 300 }
  }
  const provider: ExchangeFlowProvider = {
    async syncUser(user) {
      calls.sync += 1
      await new Promise((resolve) => setImmediate(resolve))
      passwordValid = true
      return {
        id: `id-${user.userId}`,
        pfUserId: user.userId,
        username: `pf-${user.userId}`,
        created: calls.sync === 1,
        adopted: false,
      }
    },
    signIn: () => grant(),
    grant: () => grant(),
    claimsOf: () => ({
      subject: null,
      username: null,
      email: null,
      roles: ['pf-user'],
      orgId: null,
      pfUserId: null,
      pfApplicationId: null,
      sessionId: null,
    }),
  }
  return { provider, calls, forgetPassword: () => (passwordValid = false) }
}

const user: MarketplaceUser = { userId: 'u1', orgId: 'o1', applicationId: 'app_1', email: 'u1@example.com' }

describe('createExchangeFlow', () => {
  it('runs the full flow first (cold), then only the grant for the same attributes (warm)', async () => {
    const { provider, calls } = fakeProvider()
    const exchange = createExchangeFlow(provider, new WarmCache(60_000, 10))
    expect((await exchange(user)).path).toBe('cold')
    expect((await exchange(user)).path).toBe('warm')
    expect(calls).toEqual({ sync: 1, signIn: 2 })
  })

  it('shares one sync among concurrent first exchanges of one user', async () => {
    const { provider, calls } = fakeProvider()
    const exchange = createExchangeFlow(provider, new WarmCache(60_000, 10))
    await Promise.all(Array.from({ length: 20 }, () => exchange(user)))
    expect(calls.sync).toBe(1)
  })

  it('runs the full flow again when a warm grant is refused (the password changed behind our back)', async () => {
    const { provider, calls, forgetPassword } = fakeProvider()
    const exchange = createExchangeFlow(provider, new WarmCache(60_000, 10))
    await exchange(user)
    forgetPassword()
    const again = await exchange(user)
    expect(again.path).toBe('cold')
    expect(calls.sync).toBe(2)
    expect(again.user).toMatchObject({ id: 'id-u1', pfUserId: 'u1', roles: ['pf-user'] })
  })
})
