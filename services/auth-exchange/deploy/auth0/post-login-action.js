/**
 * Auth0 post-login Action for the marketplace identity exchange: writes the namespaced custom claims the
 * exchange and the application read (spec, "Identity provider access-token claims", tenant-based column).
 *
 * Deploy: Actions → Library → Build custom → Login / Post Login, paste this file, add the secret
 * CLAIM_NAMESPACE (a URL ending with "/", e.g. https://pf.example.com/), deploy, and drag it into the Login
 * flow. Custom claims only reach JWT access tokens: the password grant must ask for an API audience
 * (TENANT_AUDIENCE). Without a URL-form namespace Auth0 drops the claims silently.
 *
 * @param {Event} event
 * @param {PostLoginAPI} api
 */
exports.onExecutePostLogin = async (event, api) => {
  const namespace = event.secrets.CLAIM_NAMESPACE || 'https://pf.example.com/'
  if (!/^https?:\/\/.+\/$/.test(namespace)) throw new Error('CLAIM_NAMESPACE must be a URL ending with "/"')
  const metadata = event.user.app_metadata || {}
  api.accessToken.setCustomClaim(
    `${namespace}roles`,
    (event.authorization && event.authorization.roles) || [],
  )
  for (const name of ['orgId', 'pfUserId', 'pfApplicationId']) {
    if (metadata[name] !== undefined) api.accessToken.setCustomClaim(`${namespace}${name}`, metadata[name])
  }
}
