import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'

export interface ListenOptions {
  port: number
  host?: string
  /** PEM certificate and key: when given, the server speaks HTTPS only, TLS 1.2 or newer. */
  tls?: { cert: string | Buffer; key: string | Buffer }
  /** How long `close()` lets in-flight requests finish before cutting connections. */
  drainTimeoutMs?: number
}

export interface RunningServer {
  server: Server
  /** `http(s)://127.0.0.1:<port>` (or the bound host). */
  url: string
  port: number
  /** Stops accepting, lets in-flight requests finish (up to the drain timeout), then resolves. */
  close(): Promise<void>
}

/**
 * Starts an HTTP or HTTPS server for an app. Port 0 picks a free port (tests).
 *
 * @example
 * const running = await listen(createApp(deps), { port: config.port, tls })
 */
export async function listen(
  handler: RequestListener,
  { port, host = '0.0.0.0', tls, drainTimeoutMs = 10_000 }: ListenOptions,
): Promise<RunningServer> {
  const server: Server = tls
    ? createHttpsServer({ cert: tls.cert, key: tls.key, minVersion: 'TLSv1.2' }, handler)
    : createHttpServer(handler)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const bound = (server.address() as AddressInfo).port
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => server.closeAllConnections(), drainTimeoutMs)
      timer.unref()
      server.close(() => {
        clearTimeout(timer)
        resolve()
      })
      server.closeIdleConnections()
    }))
  return { server, url: `${tls ? 'https' : 'http'}://${shownHost}:${bound}`, port: bound, close }
}
