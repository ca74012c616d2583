// Drives a Keycloak (the emulator, or a live server) with Keycloak's own admin client, the way real tools do,
// and prints what it saw as one JSON line. Run as a child process: the SDK is ESM-only and Jest runs CommonJS.
// Usage: node keycloak-admin-client.mjs <baseUrl> <realm> <adminUser> <adminPassword> <clientId> <clientSecret> <suffix>
import KcAdminClient from '@keycloak/keycloak-admin-client'

const [baseUrl, realm, adminUser, adminPassword, clientId, clientSecret, suffix] = process.argv.slice(2)
const seen = {}
const admin = new KcAdminClient({ baseUrl, realmName: 'master' })
await admin.auth({
  grantType: 'password',
  clientId: 'admin-cli',
  username: adminUser,
  password: adminPassword,
})
admin.setConfig({ realmName: realm })

const username = `pf-sdk-${suffix}`
const { id } = await admin.users.create({
  username,
  email: `sdk-${suffix}@example.com`,
  firstName: 'Sdk',
  lastName: 'User',
  enabled: true,
  emailVerified: true,
  attributes: { pfUserId: [`sdk-${suffix}`] },
  credentials: [{ type: 'password', value: 'Sdk-password-1', temporary: false }],
})
seen.createdId = id
seen.foundByUsername = (await admin.users.find({ username, exact: true })).map((u) => u.id)
seen.foundByAttribute = (await admin.users.find({ q: `pfUserId:SDK-${suffix}` })).map((u) => u.id)
const user = await admin.users.findOne({ id })
seen.stored = {
  username: user.username,
  email: user.email,
  firstName: user.firstName,
  attributes: user.attributes,
}
// A PUT of only some fields: since 24.0.4 what is left out is gone, or refused when required.
seen.partialPut = await admin.users.update({ id }, { attributes: { orgId: ['o1'] } }).then(
  () => 'accepted',
  (error) => error.response?.status ?? String(error),
)
const afterPartial = await admin.users.findOne({ id })
seen.afterPartial = {
  email: afterPartial.email,
  firstName: afterPartial.firstName ?? null,
  attributes: afterPartial.attributes ?? null,
}
await admin.users.update({ id }, { ...user, attributes: { ...user.attributes, orgId: ['o2'] } })
seen.afterFullPut = (await admin.users.findOne({ id })).attributes
await admin.users.resetPassword({
  id,
  credential: { type: 'password', value: 'Sdk-password-2', temporary: false },
})
const role = await admin.roles.findOneByName({ name: 'pf-user' })
await admin.users.addRealmRoleMappings({ id, roles: [{ id: role.id, name: role.name }] })
seen.realmRoles = (await admin.users.listRealmRoleMappings({ id })).map((r) => r.name).sort()
seen.mappings = Object.keys(await admin.users.listRoleMappings({ id })).sort()
seen.duplicate = await admin.users
  .create({ username: username.toUpperCase(), email: `other-${suffix}@example.com` })
  .then(
    () => 'created',
    (error) => error.response?.status ?? String(error),
  )
seen.serverVersion = (await admin.serverInfo.find()).systemInfo?.version ?? null

// What adoption reads (issue 22): effective roles, composites expanded; the realm's default roles; credentials,
// identity-provider links, groups; sessions that survive a new password and end with the admin logout.
seen.effectiveRealm = (await admin.users.listCompositeRealmRoleMappings({ id })).map((r) => r.name).sort()
const [account] = await admin.clients.find({ clientId: 'account' })
seen.effectiveAccount = (
  await admin.users.listCompositeClientRoleMappings({ id, clientUniqueId: account.id })
)
  .map((r) => r.name)
  .sort()
const defaults = await admin.roles.findOneByName({ name: `default-roles-${realm}` })
seen.defaultComposites = (await admin.roles.getCompositeRoles({ id: defaults.id })).map((r) => r.name).sort()
seen.credentialTypes = (await admin.users.getCredentials({ id })).map((c) => c.type)
seen.identityProviderLinks = await admin.users.listFederatedIdentities({ id })
const group = await admin.groups.create({ name: `sdk-${suffix}` })
await admin.users.addToGroup({ id, groupId: group.id })
seen.groupCount = (await admin.users.countGroups({ id })).count
seen.groups = (await admin.users.listGroups({ id })).map((g) => g.name)
await admin.groups.del({ id: group.id })

const grant = async (fields) => {
  const res = await fetch(`${baseUrl}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: clientId, client_secret: clientSecret, ...fields }),
  })
  return { status: res.status, body: await res.json() }
}
const signIn = (pw) => grant({ grant_type: 'password', username, password: pw, scope: 'openid' })
// Version 24 may leave UPDATE_PASSWORD on the user: clear it for the grants below.
await admin.users.update({ id }, { ...(await admin.users.findOne({ id })), requiredActions: [] })
const before = await signIn('Sdk-password-2')
await admin.users.resetPassword({
  id,
  credential: { type: 'password', value: 'Sdk-password-3', temporary: false },
})
seen.refreshAfterReset = (
  await grant({ grant_type: 'refresh_token', refresh_token: before.body.refresh_token })
).status
const again = await signIn('Sdk-password-3')
await admin.users.logout({ id })
// Issue 27: sessions listed with their start (epoch ms), ended one by one; offline ones by client, with
// isOffline (24.0.2 and later), or all at once with the client's consent.
const [app] = await admin.clients.find({ clientId })
const online = await signIn('Sdk-password-3')
const offline = await grant({
  grant_type: 'password',
  username,
  password: 'Sdk-password-3',
  scope: 'openid offline_access',
})
const sessions = await admin.users.listSessions({ id })
seen.sessionStarts = sessions.map((s) => typeof s.start === 'number' && s.start > 1e12)
const offlineSessions = await admin.users.listOfflineSessions({ id, clientId: app.id })
seen.offlineSessions = offlineSessions.length
for (const s of sessions) await admin.realms.deleteSession({ realm, session: s.id })
seen.refreshAfterDelete = (
  await grant({ grant_type: 'refresh_token', refresh_token: online.body.refresh_token })
).status
const deleteOffline = await admin.realms
  .deleteSession({ realm, session: offlineSessions[0]?.id ?? 'none', isOffline: true })
  .then(
    () => 204,
    (error) => error.response?.status ?? String(error),
  )
if (deleteOffline !== 204) await admin.users.revokeConsent({ id, clientId })
seen.deleteOffline = deleteOffline
seen.offlineAfterDelete = (await admin.users.listOfflineSessions({ id, clientId: app.id })).length
seen.refreshOfflineAfterDelete = (
  await grant({ grant_type: 'refresh_token', refresh_token: offline.body.refresh_token })
).status
seen.deleteUnknownSession = await admin.realms.deleteSession({ realm, session: 'no-such-session' }).then(
  () => 204,
  (error) => error.response?.status ?? String(error),
)
seen.refreshAfterLogout = (
  await grant({ grant_type: 'refresh_token', refresh_token: again.body.refresh_token })
).status
if (Number.parseInt(seen.serverVersion ?? '0', 10) >= 26) {
  seen.organizations = await admin.organizations.memberOrganizations({ userId: id }).then(
    (orgs) => orgs.length,
    (error) => error.response?.status ?? String(error),
  )
}
// What a set-up check reads (the exchange's doctor): the client, the user profile, Verify Profile.
const [setupClient] = await admin.clients.find({ clientId })
seen.setupClient = {
  publicClient: setupClient?.publicClient,
  directAccessGrantsEnabled: setupClient?.directAccessGrantsEnabled,
}
const profile = await admin.users.getProfile()
seen.profile = {
  unmanagedAttributePolicy: profile.unmanagedAttributePolicy ?? null,
  names: (profile.attributes ?? []).map((a) => a.name),
}
seen.verifyProfile = (
  await admin.authenticationManagement.getRequiredActionForAlias({ alias: 'VERIFY_PROFILE' })
)?.enabled

// Issue 35: a pfUserId with spaces, quotes, a colon and a backslash, searched as the exchange writes `q`
// (quoted): `\\` and `\"` escaped (the parser of 24.0.0-24.0.8, 25, 26.0.0-26.0.5), or only `\"` (26.0.6 on);
// the unquoted value (what the exchange sent before) finds nothing.
const odd = `sdk "odd" a\\b c:${suffix}`
const { id: oddId } = await admin.users.create({
  username: `pf-sdk-odd-${suffix}`,
  email: `sdk-odd-${suffix}@example.com`,
  firstName: 'Sdk',
  lastName: 'Odd',
  enabled: true,
  attributes: { pfUserId: [odd] },
})
const foundBy = async (q) => (await admin.users.find({ q, exact: true })).some((u) => u.id === oddId)
seen.oddSearch = {
  escaped: await foundBy(`pfUserId:"${odd.replace(/[\\"]/g, (c) => `\\${c}`)}"`),
  quotesOnly: await foundBy(`pfUserId:"${odd.replace(/"/g, '\\"')}"`),
  unquoted: await foundBy(`pfUserId:${odd}`),
}
await admin.users.del({ id: oddId })

const service = new KcAdminClient({ baseUrl, realmName: realm })
await service.auth({ grantType: 'client_credentials', clientId, clientSecret })
seen.serviceAccountSees = (await service.users.find({ username, exact: true })).map((u) => u.id)

await admin.users.del({ id }).catch(() => {})
process.stdout.write(`${JSON.stringify(seen)}\n`)
