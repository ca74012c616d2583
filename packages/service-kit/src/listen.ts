import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from './server-limits'

export interface ListenOptions {
  port: number
  host?: string
  /** PEM certificate and key: when given, the server speaks HTTPS only, TLS 1.2 or newer. */
  tls?: { cert: string | Buffer; key: string | Buffer }
  /** Time-outs, connection cap and drain time; default `DEFAULT_SERVER_LIMITS`. */
  limits?: Partial<ServerLimits>
}

export interface RunningServer {
  server: Server
  /** `http(s)://127.0.0.1:<port>` (or the bound host). */
  url: string
  port: number
  /** Stops accepting, lets in-flight requests finish (up to the drain time), then resolves. */
  close(): Promise<void>
}

/**
 * Starts an HTTP or HTTPS server for an app, with bounds on every client: header and request time-outs
 * (checked every second, not Node's default 30 s; with TLS, the handshake too), a keep-alive time-out and a
 * connection cap. Port 0
 * picks a free port (tests).
 *
 * @example
 * const running = await listen(createApp(deps), { port: config.port, tls, limits: config.server })
 */
export async function listen(
  handler: RequestListener,
  { port, host = '0.0.0.0', tls, limits: given = {} }: ListenOptions,
): Promise<RunningServer> {
  const limits = { ...DEFAULT_SERVER_LIMITS, ...given }
  const options = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
  }
  // The header time-out starts once TLS is up: a client that opens TCP and never sends its ClientHello
  // would hold a connection for Node's default 120 s, and a few of them the whole connection cap.
  const handshakeTimeout = limits.headersTimeoutMs
  const server: Server = tls
    ? createHttpsServer(
        { ...options, handshakeTimeout, cert: tls.cert, key: tls.key, minVersion: 'TLSv1.2' },
        handler,
      )
    : createHttpServer(options, handler)
  server.maxConnections = limits.maxConnections
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const bound = (server.address() as AddressInfo).port
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => server.closeAllConnections(), limits.drainTimeoutMs)
      timer.unref()
      server.close(() => {
        clearTimeout(timer)
        resolve()
      })
      server.closeIdleConnections()
    }))
  return { server, url: `${tls ? 'https' : 'http'}://${shownHost}:${bound}`, port: bound, close }
}
