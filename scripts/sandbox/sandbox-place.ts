import { join } from 'node:path'

/** Where one sandbox keeps its state (logs, S3 objects, its record while it runs) and which queue it uses. */
export interface SandboxPlace {
  /** `.sandbox/` itself, or a folder of its own under it (`.sandbox/ephemeral-4242`). */
  dir: string
  /** `{pf-sandbox}`, or one of its own (`{pf-sandbox-ephemeral-4242}`); never the production `{pf}`. */
  queuePrefix: string
}

/** The prefix of the sandbox on the contract's ports (README, the dead-letter command's help). */
export const SANDBOX_QUEUE_PREFIX = '{pf-sandbox}'

/**
 * The sandbox on the contract's ports uses `home` (`.sandbox/`) and `{pf-sandbox}`: a second one cannot start
 * beside it, its ports are taken. Any other gets a folder and a queue of its own, so that two never mix their
 * logs or each other's jobs: `ephemeral-<pid>` with `--ports ephemeral`, `offset-<n>` with `--port-offset n`.
 */
export function sandboxPlace(
  home: string,
  { ports, portOffset = 0, pid }: { ports: 'fixed' | 'ephemeral'; portOffset?: number; pid: number },
): SandboxPlace {
  const name =
    ports === 'ephemeral' ? `ephemeral-${pid}` : portOffset !== 0 ? `offset-${portOffset}` : undefined
  if (name === undefined) return { dir: home, queuePrefix: SANDBOX_QUEUE_PREFIX }
  return { dir: join(home, name), queuePrefix: `{pf-sandbox-${name}}` }
}
