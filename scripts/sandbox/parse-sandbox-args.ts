import { parseArgs } from 'node:util'
import { PASSED_SETTINGS_TEXT } from './passed-settings'
import { deadLetterAfterMs, SANDBOX_JOB_SETTINGS as JOBS } from './sandbox-defaults'
import { SandboxError, type IdpStyle } from './start-sandbox'

/** A mistake on the command line: `pnpm start` prints it with the usage and exits 2. */
export class SandboxUsageError extends SandboxError {}

export interface SandboxArgs {
  idp: IdpStyle[]
  ports: 'fixed' | 'ephemeral'
  /** Your handlers file (JavaScript, or TypeScript through tsx); the worker restarts when it changes. */
  handlers?: string
  /** Every service's log on the terminal, not only what happened. */
  verbose: boolean
  /** The address the services bind to (default 127.0.0.1: the sandbox runs demo secrets). */
  host: string
  help: boolean
  /** `--companies postgres`: the provider searches a private PostgreSQL; absent: in memory. */
  companies?: 'memory' | 'postgres'
  /** `--port-offset N`: every fixed port plus N; absent: the contract's ports. */
  portOffset?: number
  /** `--lists reference`: every list of data/reference/ and the sample's; absent: the sample's. */
  lists?: 'sample' | 'reference'
  /** `--traces`: each request's span tree on the terminal. */
  traces?: true
}

export const USAGE =
  'usage: pnpm start [--idp realm|tenant|realm,tenant] [--ports fixed|ephemeral] [--handlers FILE] [--verbose] [--host ADDRESS] [--companies memory|postgres] [--port-offset N] [--lists sample|reference] [--traces] [--help]'

/** `pnpm start --help`. */
export const SANDBOX_HELP = `${USAGE}

The whole kit on this machine, with demo secrets: provider, webhook receiver and worker, auth exchange(s), an
S3-compatible store, the identity-provider emulator(s), the marketplace JWT issuer, and Redis.

  --idp realm|tenant|realm,tenant   which identity-provider style(s) the exchange runs against (default realm:
                                    the Keycloak emulator; tenant: the Auth0 emulator)
  --ports fixed|ephemeral           fixed: the contract's ports (3001-3004, 3011; emulators 4100, 4110, 4200,
                                    4569); ephemeral: free ports, when those are taken (default fixed)
  --handlers FILE                   your webhook handlers (a module exporting "handlers"; .js, or .ts through
                                    tsx) run by the sandbox's worker over the built-in ones; when the file
                                    changes the worker drains and restarts
  --verbose                         every service's log on the terminal (always in logs/ of the sandbox's folder)
  --host ADDRESS                    the address the services and the issuer bind to (default 127.0.0.1, as
                                    the sandbox runs demo secrets; 0.0.0.0 for other machines; the emulators
                                    and S3 stay on 127.0.0.1)
  --companies memory|postgres       where the provider searches companies: in memory (default), or a private
                                    PostgreSQL (Debian's postgresql package) with the sample imported
  --port-offset N                   every fixed port plus N (--port-offset 100: 3101-3104, 3111, 4300, …):
                                    a second sandbox beside one on the contract's ports
  --lists sample|reference          the lists the provider screens against: the sample's (default), or every
                                    list in data/reference/ (UN, US CSL and DPL, OpenSanctions, OFAC) as well
  --traces                          each request's span tree on this terminal (receiver → queue → worker),
                                    from an OTLP collector in the sandbox's process
  --help                            this text

What happens is shown: events the worker handled, webhooks the receiver refused, failed queries, warnings.
A purchase.completed with itemId "fail-me" fails in the sandbox's worker, to try retries and dead letters:
its ${JOBS.WEBHOOK_JOB_ATTEMPTS} attempts (WEBHOOK_JOB_ATTEMPTS=${JOBS.WEBHOOK_JOB_ATTEMPTS}, WEBHOOK_JOB_BACKOFF_MS=${JOBS.WEBHOOK_JOB_BACKOFF_MS}; yours win) end within ${
  deadLetterAfterMs(Number(JOBS.WEBHOOK_JOB_ATTEMPTS), Number(JOBS.WEBHOOK_JOB_BACKOFF_MS)) / 1000
} s.
Of your environment the services get these settings (shown in the banner, secrets as ***):
  ${PASSED_SETTINGS_TEXT}
and your WEBHOOK_HANDLERS is --handlers; never REDIS_URL (it chooses the sandbox's Redis) nor AWS_*.
The sandbox keeps its state in .sandbox/ (SANDBOX_DIR): on the contract's ports .sandbox/ itself and queue
prefix {pf-sandbox}, otherwise a folder and a prefix of its own, named in the banner.
Ctrl-C (or SIGINT/SIGTERM) drains every service; a second Ctrl-C ends everything at once.`

/**
 * The sandbox's command line. A `--` is ignored wherever it stands: pnpm 10 hands it on to the script, so
 * `pnpm start -- --idp tenant` and `pnpm start --idp tenant` mean the same.
 */
export function parseSandboxArgs(argv: string[]): SandboxArgs {
  let values: {
    idp?: string
    ports?: string
    handlers?: string
    verbose?: boolean
    host?: string
    help?: boolean
    companies?: string
    'port-offset'?: string
    lists?: string
    traces?: boolean
  }
  try {
    ;({ values } = parseArgs({
      args: argv.filter((arg) => arg !== '--'),
      options: {
        idp: { type: 'string', default: 'realm' },
        ports: { type: 'string', default: 'fixed' },
        handlers: { type: 'string' },
        verbose: { type: 'boolean', default: false },
        host: { type: 'string', default: '127.0.0.1' },
        help: { type: 'boolean', short: 'h', default: false },
        companies: { type: 'string' },
        'port-offset': { type: 'string' },
        lists: { type: 'string' },
        traces: { type: 'boolean' },
      },
    }))
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '')
    throw new SandboxUsageError(`${message}\n${USAGE}`)
  }
  const idp = [...new Set((values.idp ?? 'realm').split(',').map((style) => style.trim()))]
  if (idp.length === 0 || idp.some((style) => style !== 'realm' && style !== 'tenant'))
    throw new SandboxUsageError(`--idp takes realm, tenant or realm,tenant (got "${values.idp}")\n${USAGE}`)
  if (values.ports !== 'fixed' && values.ports !== 'ephemeral')
    throw new SandboxUsageError(`--ports takes fixed or ephemeral (got "${values.ports}")\n${USAGE}`)
  const { companies } = values
  if (companies !== undefined && companies !== 'memory' && companies !== 'postgres')
    throw new SandboxUsageError(`--companies takes memory or postgres (got "${companies}")\n${USAGE}`)
  const offsetText = values['port-offset']
  const portOffset = offsetText === undefined ? undefined : Number(offsetText)
  if (portOffset !== undefined && !(Number.isInteger(portOffset) && portOffset >= 1 && portOffset <= 60_000))
    throw new SandboxUsageError(
      `--port-offset takes a whole number from 1 to 60000 (got "${offsetText}")\n${USAGE}`,
    )
  if (portOffset !== undefined && values.ports === 'ephemeral')
    throw new SandboxUsageError(
      `--port-offset moves the fixed ports: it goes without --ports ephemeral\n${USAGE}`,
    )
  const { lists } = values
  if (lists !== undefined && lists !== 'sample' && lists !== 'reference')
    throw new SandboxUsageError(`--lists takes sample or reference (got "${lists}")\n${USAGE}`)
  return {
    ...(companies ? { companies } : {}),
    ...(portOffset ? { portOffset } : {}),
    ...(lists ? { lists } : {}),
    ...(values.traces ? { traces: true as const } : {}),
    idp: idp as IdpStyle[],
    ports: values.ports,
    ...(values.handlers ? { handlers: values.handlers } : {}),
    verbose: values.verbose ?? false,
    host: values.host || '127.0.0.1',
    help: values.help ?? false,
  }
}
