import { createServer } from 'node:net'
import { BUSY_PORT_ADVICE, holderOf } from './describe-busy-port'

/** One port the sandbox listens on: what listens there, and on which address. */
export interface Listener {
  name: string
  host: string
  port: number
}

/** Whether `host:port` can be listened on now (tried and released at once). */
function free({ host, port }: Listener): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, host, () => probe.close(() => resolve(true)))
  })
}

/**
 * Every one of `listeners` whose port is taken, named with the process that holds it, as one message; undefined
 * when all are free. Asked before anything starts, so that a second sandbox on the same ports says every
 * conflict at once and touches nothing of the first (each listener still names its port if it loses a race).
 */
export async function findBusyPorts(listeners: Listener[]): Promise<string | undefined> {
  const taken = (await Promise.all(listeners.map(async (l) => ((await free(l)) ? [] : [l])))).flat()
  if (taken.length === 0) return undefined
  const lines = taken.map(({ name, host, port }) => {
    const holder = holderOf(port)
    return `  ${port} (${name}, on ${host})${holder ? ` is held by ${holder}` : ' is held by a process ss cannot name'}`
  })
  const ports =
    taken.length === 1 ? 'a port the sandbox needs is' : `${taken.length} ports the sandbox needs are`
  return `${ports} in use:\n${lines.join('\n')}\n${BUSY_PORT_ADVICE.replace('it,', 'them,')}`
}
