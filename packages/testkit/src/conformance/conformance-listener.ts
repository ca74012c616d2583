import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { listening } from '../lib/listening'

export interface HeardRequest {
  /** Its place among everything the suite saw (requests heard, answers received): order, never time. */
  seq: number
  method: string
  /** `/<route>/<id>`: the route says how it was answered, the id which query or event it belongs to. */
  route: string
  id: string
  headers: IncomingHttpHeaders
  raw: Buffer
}

export interface ConformanceListener {
  port: number
  heard: HeardRequest[]
  /** The next number in the suite's order (an answer received takes one). */
  tick(): number
  /** What came on a route for an id, waiting up to `waitMs` for the first. */
  waitFor(route: RegExp, id: string, waitMs: number): Promise<HeardRequest | undefined>
  close(): Promise<void>
}

/**
 * The suite's listener for callbacks and webhook deliveries. A route ending in `-500` answers 500, one ending
 * in `-drop` closes the connection without an answer (the platform's side refusing); any other answers 200.
 */
export async function startConformanceListener(host: string, port: number): Promise<ConformanceListener> {
  const heard: HeardRequest[] = []
  let seq = 0
  const server = createServer((req, res) => {
    const [, route = '', id = ''] = (req.url ?? '').split('/').map((s) => decodeURIComponent(s))
    if (route.endsWith('-drop')) {
      heard.push({
        seq: ++seq,
        method: req.method ?? '',
        route,
        id,
        headers: req.headers,
        raw: Buffer.alloc(0),
      })
      req.socket.destroy()
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      heard.push({
        seq: ++seq,
        method: req.method ?? '',
        route,
        id,
        headers: req.headers,
        raw: Buffer.concat(chunks),
      })
      res.writeHead(route.endsWith('-500') ? 500 : 200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await listening(server.listen(port, host))
  const find = (route: RegExp, id: string) => heard.find((h) => route.test(h.route) && h.id === id)
  return {
    port: (server.address() as AddressInfo).port,
    heard,
    tick: () => ++seq,
    async waitFor(route, id, waitMs) {
      const until = Date.now() + waitMs
      while (!find(route, id) && Date.now() < until) await new Promise((r) => setTimeout(r, 10))
      return find(route, id)
    },
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
