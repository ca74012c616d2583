import { describeFetchError } from '../platform/describe-fetch-error'
import { startMarketplaceIssuer } from '../platform/start-marketplace-issuer'
import { commandValues } from './command-values'
import type { CommandValues } from './parse-command'
import { CommandFailure } from './usage'

/** `issuer`: a marketplace JWT issuer (JWKS + POST /mint) until SIGINT or SIGTERM. */
export async function issuerCommand(_args: string[], values: CommandValues) {
  const read = commandValues(values, 'issuer')
  const issuer = await startMarketplaceIssuer({
    port: read.number('port', 4200, { min: 0, max: 65535, integer: true }),
    host: read.text('host'),
    issuer: read.text('iss'),
  })
  if (read.flag('json'))
    console.log(JSON.stringify({ issuer: issuer.issuer, jwksUrl: issuer.jwksUrl }, null, 2))
  else
    console.log(
      `marketplace issuer: iss ${issuer.issuer}\n  JWKS  ${issuer.jwksUrl}\n  mint  POST ${issuer.url}/mint  (or: pf-sim token --issuer ${issuer.url} …)`,
    )
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve())
  })
  await issuer.stop()
  return 0
}

/** `token`: a marketplace JWT minted by a running `issuer`, printed alone so `$(pf-sim token …)` takes it. */
export async function tokenCommand(_args: string[], values: CommandValues) {
  const read = commandValues(values, 'token')
  const issuerUrl = (read.url('issuer') as string).replace(/\/+$/, '')
  const claims = {
    userId: read.need('user-id'),
    orgId: read.need('org-id'),
    applicationId: read.need('application-id'),
    email: read.text('email'),
    expiresInSec: read.text('expires-in')
      ? read.number('expires-in', 0, { min: 1, integer: true })
      : undefined,
  }
  let res: Response
  try {
    res = await fetch(`${issuerUrl}/mint`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(claims),
      signal: AbortSignal.timeout(10_000),
    })
  } catch (error) {
    throw new CommandFailure(`no answer from the issuer at ${issuerUrl}: ${describeFetchError(error)}`)
  }
  const text = await res.text()
  let answer: { token?: string; error?: string } = {}
  try {
    answer = JSON.parse(text) as typeof answer
  } catch {
    // shown below as the status and the text
  }
  if (!answer.token)
    throw new CommandFailure(`the issuer answered ${res.status}: ${answer.error ?? text.slice(0, 200)}`)
  console.log(read.flag('json') ? JSON.stringify(answer, null, 2) : answer.token)
  return 0
}
