import { parseArgs } from 'node:util'
import { SandboxError, type IdpStyle } from './start-sandbox'

export interface SandboxArgs {
  idp: IdpStyle[]
  ports: 'fixed' | 'ephemeral'
}

const USAGE = 'usage: pnpm start [--idp realm|tenant|realm,tenant] [--ports fixed|ephemeral]'

/**
 * The sandbox's command line. A `--` is ignored wherever it stands: pnpm 10 hands it on to the script, so
 * `pnpm start -- --idp tenant` and `pnpm start --idp tenant` mean the same.
 */
export function parseSandboxArgs(argv: string[]): SandboxArgs {
  let values: { idp?: string; ports?: string }
  try {
    ;({ values } = parseArgs({
      args: argv.filter((arg) => arg !== '--'),
      options: { idp: { type: 'string', default: 'realm' }, ports: { type: 'string', default: 'fixed' } },
    }))
  } catch (error) {
    throw new SandboxError(`${(error as Error).message}\n${USAGE}`)
  }
  const idp = [...new Set((values.idp ?? 'realm').split(',').map((style) => style.trim()))]
  if (idp.length === 0 || idp.some((style) => style !== 'realm' && style !== 'tenant'))
    throw new SandboxError(`--idp takes realm, tenant or realm,tenant (got "${values.idp}")\n${USAGE}`)
  if (values.ports !== 'fixed' && values.ports !== 'ephemeral')
    throw new SandboxError(`--ports takes fixed or ephemeral (got "${values.ports}")\n${USAGE}`)
  return { idp: idp as IdpStyle[], ports: values.ports }
}
