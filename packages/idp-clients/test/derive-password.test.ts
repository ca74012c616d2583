import { loadTestVectors } from '@pf/testkit'
import { deriveRealmPassword, deriveTenantPassword } from '@pf/idp-clients'

describe('derived passwords (spec, "Identity provider user": identical on every exchange)', () => {
  it.each(loadTestVectors().derivedPassword)(
    'match the test vector for $userId',
    ({ userId, clientSecret, realm, tenant }) => {
      expect(deriveRealmPassword(userId, clientSecret)).toBe(realm)
      expect(deriveTenantPassword(userId, clientSecret)).toBe(tenant)
    },
  )

  it('tenant style: 32 characters with upper, lower, digit and special', () => {
    const password = deriveTenantPassword('user_1', 'secret')
    expect(password).toHaveLength(32)
    expect(password).toMatch(/^Pf!/)
    expect(password).toMatch(/[a-z]/)
    expect(password).toMatch(/\d/)
  })
})
