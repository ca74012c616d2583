import { spawnSync } from 'node:child_process'

/**
 * Loaded into a Node child before its entry point (`--import`, a data URL, so nothing to ship as a file):
 * when the IPC channel to its parent closes, which happens however the parent ends (SIGKILL and a closed
 * terminal included), the child sends itself SIGTERM and drains as it would under Kubernetes. The channel
 * is unreferenced, so it never keeps the child alive on its own.
 */
const EXIT_WITH_PARENT = `if (process.channel) {
  process.channel.unref()
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'))
}`

/** Node flags and stdio that make a Node child end with this process; see `EXIT_WITH_PARENT`. */
export const nodeChildTiedToParent = {
  execArgv: ['--import', `data:text/javascript,${encodeURIComponent(EXIT_WITH_PARENT)}`],
  stdio: ['ignore', 'pipe', 'pipe', 'ipc'] as ['ignore', 'pipe', 'pipe', 'ipc'],
}

let setpriv: boolean | undefined

/**
 * The command line that runs a non-Node binary (redis-server) so that the kernel kills it when this process
 * dies: util-linux's `setpriv --pdeathsig` (Linux) where it is installed; elsewhere the binary as it is,
 * which a SIGKILL of this process leaves running. SIGKILL, not SIGTERM: a process a test froze (SIGSTOP)
 * would hold a SIGTERM pending for ever, and these servers keep nothing worth a clean shutdown.
 */
export function commandTiedToParent(binary: string, args: string[]): [string, string[]] {
  setpriv ??= spawnSync('setpriv', ['--help'], { stdio: 'ignore' }).status === 0
  return setpriv ? ['setpriv', ['--pdeathsig=KILL', '--', binary, ...args]] : [binary, args]
}
