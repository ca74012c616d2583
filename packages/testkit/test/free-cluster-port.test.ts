import { createServer } from 'node:net'
import { freeClusterPort } from '../src/redis/free-cluster-port'

const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })

describe('freeClusterPort', () => {
  // A node port above 55535 makes redis-server exit 1 at start (its bus port would pass 65535): one cluster
  // start in the suite failed that way.
  it('gives node ports of at most 55535 whose bus port (+10000) is free', async () => {
    for (let i = 0; i < 50; i += 1) {
      const port = await freeClusterPort()
      expect(port).toBeLessThanOrEqual(55_535)
      expect(await bindable(port + 10_000)).toBe(true)
    }
  })
})
