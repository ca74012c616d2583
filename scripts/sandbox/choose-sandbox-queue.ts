import { runningSandboxes, type RunningSandbox } from './running-sandboxes'

/** Which queue `pnpm dead-letters` reads. */
export type SandboxQueueChoice =
  /** Redis or the prefix is set: as they say (the defaults for the rest). */
  | { kind: 'given' }
  /** Exactly one sandbox runs: its Redis and prefix. */
  | { kind: 'sandbox'; sandbox: RunningSandbox }
  /** None runs: the settings' defaults. */
  | { kind: 'none' }
  /** Several run: the caller must choose. */
  | { kind: 'several'; sandboxes: RunningSandbox[] }

/** The settings that name a queue: any of them given means the caller chose it. */
const QUEUE_SETTINGS = ['REDIS_URL', 'REDIS_SENTINELS', 'REDIS_CLUSTER_NODES', 'WEBHOOK_QUEUE_PREFIX']

/** The queue of the one sandbox running under `home`, unless the environment names one. */
export function chooseSandboxQueue(env: NodeJS.ProcessEnv, home: string): SandboxQueueChoice {
  if (QUEUE_SETTINGS.some((name) => (env[name]?.trim() ?? '') !== '')) return { kind: 'given' }
  const sandboxes = runningSandboxes(home)
  if (sandboxes.length === 0) return { kind: 'none' }
  if (sandboxes.length === 1) return { kind: 'sandbox', sandbox: sandboxes[0] as RunningSandbox }
  return { kind: 'several', sandboxes }
}

/** A Redis URL for people: never its password. */
export const withoutPassword = (url: string) => url.replace(/^([a-z]+:\/\/)[^@/]*@/i, '$1***@')

/** How to point the command at `sandbox` by hand: its settings, as a shell line. */
export const queueSettings = (sandbox: RunningSandbox) =>
  `REDIS_URL=${withoutPassword(sandbox.redisUrl)} WEBHOOK_QUEUE_PREFIX='${sandbox.queuePrefix}'`
