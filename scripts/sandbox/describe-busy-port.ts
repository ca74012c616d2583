import { spawnSync } from 'node:child_process'

/** Which process listens on `port` (`python3, pid 28493`), where `ss` can tell; undefined otherwise. */
export function holderOf(port: number): string | undefined {
  const ss = spawnSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' })
  const found = /users:\(\("([^"]+)",pid=(\d+)/.exec(ss.stdout ?? '')
  return found ? `${found[1]}, pid ${found[2]}` : undefined
}

/** What to do about a port in use, after the sandbox names it. */
export const BUSY_PORT_ADVICE = 'stop what holds it, or run pnpm start --port-offset N or --ports ephemeral'

/**
 * The sandbox's message for a port already taken, or undefined when `error` is something else: a service's
 * `listen EADDRINUSE: address already in use 0.0.0.0:3002` (in its stderr) or an emulator's own error.
 */
export function describeBusyPort(error: unknown): string | undefined {
  const { code, port, message } = (error ?? {}) as { code?: string; port?: number; message?: string }
  const fromText = /EADDRINUSE[^\n]*?:(\d+)\b/.exec(message ?? '')?.[1]
  const busy = code === 'EADDRINUSE' ? (port ?? Number(fromText)) : fromText ? Number(fromText) : undefined
  if (busy === undefined || Number.isNaN(busy)) return undefined
  const holder = holderOf(busy)
  return `port ${busy} is in use${holder ? ` (by ${holder})` : ''}: ${BUSY_PORT_ADVICE}`
}
