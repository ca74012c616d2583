/** A mistake on the command line: the command's usage line is printed and pf-sim exits 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: CommandName,
  ) {
    super(message)
  }
}

/** A command that ran and did not succeed (exit 1), with the one line that says why. */
export class CommandFailure extends Error {}

export type CommandName =
  | 'webhook send'
  | 'webhook raw'
  | 'webhook replay'
  | 'query'
  | 'issuer'
  | 'token'
  | 'conformance provider'
  | 'conformance receiver'

/** Each command's usage: the first line is what a mistake prints; all of it is what `--help` prints. */
export const USAGE: Record<CommandName, string> = {
  'webhook send': `usage: pf-sim webhook send <kind> --url URL --secret S [--set field=value …] [--attempts N | --schedule platform | --no-retry] [--time-scale N] [--json]
  A signed webhook of a kind (session.created, session.extended, session.ended, purchase.completed,
  purchase.failed) with realistic data. One attempt by default (--no-retry), its answer shown; --attempts N
  retries up to N tries in all, --schedule platform as the platform does (30 s, 2 min, 10 min, 1 h, 6 h; six
  tries), each delay divided by --time-scale (3600: an hour a second). --set overrides a field of the kind's data.
  Exit 0 when the last answer is 2xx, 1 otherwise, 2 for a usage mistake.`,
  'webhook raw': `usage: pf-sim webhook raw --url URL --secret S --body TEXT [--signature HEX] [--attempts N | --schedule platform] [--time-scale N] [--json]
  Any body (unknown kinds, bad JSON), signed over its exact bytes unless --signature is given.
  Exit 0 when the last answer is 2xx, 1 otherwise, 2 for a usage mistake.`,
  'webhook replay': `usage: pf-sim webhook replay <webhookId> --url URL --secret S [--attempts N | --schedule platform] [--time-scale N] [--json]
  Re-sends a webhook sent before, same id and bytes (as the portal's manual replay), from $PF_SIM_HOME.
  Exit 0 when the last answer is 2xx, 1 otherwise, 2 for a usage mistake.`,
  query: `usage: pf-sim query <companies|sanctions> --provider URL [--api-key K] [--param name=value …] [--delivery inline|pf_s3_sync|webhook] [--bucket B] [--prefix P] [--s3-endpoint URL] [--show N] [--json]
  A query envelope with a callback listener: checks the callback's signature, prints the answer, the callback
  and the results as a table (--show rows, default 20; --json for the whole answer). pf_s3_sync results are
  read from --s3-endpoint (keys from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY); without it, their s3:// address.
  Exit 0 when the provider answers 2xx and the callback says delivered, 1 otherwise, 2 for a usage mistake.`,
  issuer: `usage: pf-sim issuer [--port 4200] [--host 127.0.0.1] [--iss URL] [--json]
  A marketplace JWT issuer: JWKS at /.well-known/jwks.json, tokens from POST /mint, until Ctrl-C.`,
  token: `usage: pf-sim token --issuer URL --user-id U --org-id O --application-id A [--email E] [--expires-in SECONDS] [--json]
  A marketplace JWT from a running issuer, printed alone (TOKEN=$(pf-sim token …)).`,
  'conformance provider': `usage: pf-sim conformance provider --url URL --api-key KEY --endpoint NAME|PATH [--parameters JSON] [--callback-url URL] [--s3-endpoint URL] [--default-bucket B] [--bucket B] [--bind HOST] [--json]
  Interface A's rules against a running provider, one line per rule: PASS, FAIL (expected, got) or NOT CHECKED
  (why). --endpoint is a name (companies: /api/search/companies) or a path; --parameters those of a query it
  runs (sanctions needs a name). The suite listens for callbacks and deliveries at --callback-url (the address
  the provider reaches it on, http://HOST:PORT; default a free port on 127.0.0.1) and serves S3 (s3rver) at
  --s3-endpoint: start the provider with that S3_ENDPOINT, AWS_ACCESS_KEY_ID=S3RVER, AWS_SECRET_ACCESS_KEY=S3RVER
  and its default bucket as --default-bucket (pf-deliveries); without it the pf_s3_sync rules are not checked.
  --bind is the address both listen on (default 127.0.0.1; 0.0.0.0 for a provider in a container). A provider
  that refuses private addresses needs them allowed (the reference provider: OUTBOUND_ALLOW_PRIVATE=true).
  Query ids start pf-conformance-. Exit 0 when no rule fails, 1 when one does, 2 for a usage mistake.`,
  'conformance receiver': `usage: pf-sim conformance receiver --url URL --secret S [--ca FILE] [--json]
  Interface B's rules seen from outside against a running receiver, one line per rule: each event kind signed,
  unusual JSON bytes, wrong and missing signatures, an unknown kind, a stale event, TLS below 1.2 (https URLs;
  --ca names the PEM of a private CA). The events are real and reach your handlers: their ids start
  wh_pf-conformance- and pf-conformance-. Exit 0 when no rule fails, 1 when one does, 2 for a usage mistake.`,
}

/** `pf-sim help`, `pf-sim --help`: every command's usage, on stdout (`pf-sim` alone is a usage mistake). */
export const HELP = `pf-sim — the marketplace platform, simulated

${Object.values(USAGE).join('\n\n')}

Exit codes: 0 done, 1 failed (the answer or the callback says why), 2 usage. --json prints JSON for scripts.
Sent webhooks are kept in $PF_SIM_HOME (default ./.pf-sim) for replay.`

/** The first line of a command's usage (what a mistake prints). */
export const usageLine = (command: CommandName | undefined) =>
  command
    ? USAGE[command].split('\n')[0]
    : 'usage: pf-sim <webhook send|webhook raw|webhook replay|query|issuer|token|conformance provider|conformance receiver> … (pf-sim --help)'
