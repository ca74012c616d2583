import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A callback target that answers 204 to everything (the provider posts a status before it answers). */
export async function startCallbackSink() {
  const server = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/callbacks`, close: () => server.close() }
}
