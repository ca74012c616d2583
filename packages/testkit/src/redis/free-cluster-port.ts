import { createServer } from 'node:net'
import { freePort } from '../lib/free-port'

/** Redis Cluster's bus listens 10 000 above the node's port, and refuses a node port above 55535. */
const CLUSTER_BUS_OFFSET = 10_000
const HIGHEST_NODE_PORT = 65_535 - CLUSTER_BUS_OFFSET

/**
 * A port for a cluster node: free, at most 55535, with its bus port (+10 000) free too. Linux hands out ephemeral
 * ports up to 60999, so a plain free port fails a node's start about one time in five.
 */
export async function freeClusterPort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = await freePort()
    if (port <= HIGHEST_NODE_PORT && (await isFree(port + CLUSTER_BUS_OFFSET))) return port
  }
  throw new Error('no free port pair for a Redis Cluster node (port and port + 10000)')
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.unref()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}
