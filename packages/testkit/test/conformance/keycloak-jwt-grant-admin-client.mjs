// Drives the JWT Authorization Grant's admin endpoints of a Keycloak 26.5.3+ (the emulator, or a live server
// started with --features=jwt-authorization-grant) with Keycloak's own admin client, and prints what it saw as
// one JSON line. Run as a child process: the SDK is ESM-only and Jest runs CommonJS.
// Usage: node keycloak-jwt-grant-admin-client.mjs <baseUrl> <realm> <adminUser> <adminPassword> <clientId> <suffix>
import KcAdminClient from '@keycloak/keycloak-admin-client'

const [baseUrl, realm, adminUser, adminPassword, clientId, suffix] = process.argv.slice(2)
const seen = {}
const admin = new KcAdminClient({ baseUrl, realmName: 'master' })
await admin.auth({
  grantType: 'password',
  clientId: 'admin-cli',
  username: adminUser,
  password: adminPassword,
})
admin.setConfig({ realmName: realm })
const status = (promise) =>
  promise.then(
    () => 'ok',
    (error) => error.response?.status ?? String(error),
  )

const info = await admin.serverInfo.find()
seen.feature = info.features?.find((f) => f.name === 'JWT_AUTHORIZATION_GRANT') ?? null
seen.providerTypes = (info.identityProviders ?? []).map((p) => p.id)

const alias = `pf-sdk-${suffix}`
const config = {
  issuer: `https://exchange-${suffix}.example.com`,
  jwksUrl: 'https://exchange.example.com/.well-known/jwks.json',
}
seen.createProvider = await status(
  admin.identityProviders.create({ alias, providerId: 'jwt-authorization-grant', enabled: true, config }),
)
seen.createAgain = await status(
  admin.identityProviders.create({ alias, providerId: 'jwt-authorization-grant', enabled: true, config }),
)
const provider = await admin.identityProviders.findOne({ alias })
seen.provider = {
  providerId: provider?.providerId,
  enabled: provider?.enabled,
  issuer: provider?.config?.issuer,
}
seen.missingProvider = (await admin.identityProviders.findOne({ alias: `${alias}-none` })) ?? null

const [client] = await admin.clients.find({ clientId })
const attributes = {
  ...client.attributes,
  'oauth2.jwt.authorization.grant.enabled': 'true',
  'oauth2.jwt.authorization.grant.idp': alias,
}
await admin.clients.update({ id: client.id }, { ...client, attributes, directAccessGrantsEnabled: false })
const [updated] = await admin.clients.find({ clientId })
seen.client = {
  enabled: updated.attributes?.['oauth2.jwt.authorization.grant.enabled'],
  idp: updated.attributes?.['oauth2.jwt.authorization.grant.idp'],
  directAccessGrantsEnabled: updated.directAccessGrantsEnabled,
}

const { id } = await admin.users.create({
  username: `pf-sdk-jwt-${suffix}`,
  email: `sdk-jwt-${suffix}@example.com`,
  firstName: 'Sdk',
  lastName: 'Jwt',
  enabled: true,
  credentials: [{ type: 'password', value: 'Sdk-password-1', temporary: false }],
})
const federatedIdentity = { identityProvider: alias, userId: `sdk-${suffix}`, userName: `sdk-${suffix}` }
seen.link = await status(
  admin.users.addToFederatedIdentity({ id, federatedIdentityId: alias, federatedIdentity }),
)
seen.linkAgain = await status(
  admin.users.addToFederatedIdentity({ id, federatedIdentityId: alias, federatedIdentity }),
)
seen.links = (await admin.users.listFederatedIdentities({ id })).map((l) => [l.identityProvider, l.userId])
const [password] = await admin.users.getCredentials({ id })
seen.deletePassword = await status(admin.users.deleteCredential({ id, credentialId: password.id }))
seen.credentialsAfter = (await admin.users.getCredentials({ id })).map((c) => c.type)
seen.deleteAgain = await status(admin.users.deleteCredential({ id, credentialId: password.id }))

await admin.users.del({ id }).catch(() => {})
await admin.identityProviders.del({ alias }).catch(() => {})
process.stdout.write(`${JSON.stringify(seen)}\n`)
