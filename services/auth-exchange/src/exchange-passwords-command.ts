import { createIdentityProvider } from '@pf/idp-clients'
import type { ExchangeConfig } from './config'
import { providerGrantOf } from './provider-grant'

export const EXCHANGE_PASSWORDS_USAGE = `usage: pf-exchange-passwords remove
Removes every password the exchange set (the accounts marked pfPasswordSetBy=exchange when it set one), with
the mark, from the identity provider: once EXCHANGE_GRANT is password-less (jwt-bearer, token-exchange), no
exchange needs them, and each is a way in for anyone holding the client secret. Passwords set by anyone else (unmarked) stay. The
exchange also removes a user's marked password at that user's next exchange; this does it for everyone at once.
Reads the exchange's settings (IDP_STYLE, REALM_* or TENANT_*, EXCHANGE_*); refuses unless EXCHANGE_GRANT is
password-less. A tenant (Auth0) account cannot be without a password: its marked one becomes a random one nobody
keeps; Auth0's user search lags behind writes, so run it again until it removes none.
Prints how many accounts and passwords it removed; exits 1 when the provider fails (run it again: it resumes).`

/**
 * `pf-exchange-passwords remove`, from its arguments and the exchange's settings: `--help` prints the usage on
 * stdout; no argument, or any other, prints it on stderr and exits 2.
 */
export async function exchangePasswordsCommand(
  args: string[],
  loadConfig: () => ExchangeConfig,
): Promise<void> {
  if (args.includes('--help') || args.includes('-h') || args[0] === 'help') {
    process.stdout.write(`${EXCHANGE_PASSWORDS_USAGE}\n`)
    return
  }
  if (args.length !== 1 || args[0] !== 'remove') {
    process.stderr.write(`${EXCHANGE_PASSWORDS_USAGE}\n`)
    process.exit(2)
  }
  const config = loadConfig()
  if (config.grant.mode === 'password')
    throw new Error(
      'EXCHANGE_GRANT is password: the exchange still signs users in with their passwords; switch to a password-less mode first',
    )
  const idp = createIdentityProvider(config.idp, {
    timeoutMs: config.idpTimeoutMs,
    signInGrant: providerGrantOf(config.grant).signInGrant,
  })
  if (!idp.removeMarkedPasswords) throw new Error(`the ${idp.style} style has no password-less mode`)
  const { accounts, passwords } = await idp.removeMarkedPasswords()
  process.stdout.write(`removed ${passwords} password(s) the exchange had set, from ${accounts} account(s)\n`)
}
