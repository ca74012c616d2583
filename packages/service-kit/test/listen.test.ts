import { once } from 'node:events'
import { get } from 'node:https'
import { connect, type Socket } from 'node:net'
import selfsigned from 'selfsigned'
import { createEnvReader, listen, readServerLimits, type RunningServer } from '../src'

let running: RunningServer | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

/** A raw client: what it received, and a promise of the server closing it. */
function rawClient(port: number) {
  const socket: Socket = connect(port, '127.0.0.1')
  let received = ''
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()))
  socket.on('error', () => {})
  const closed = once(socket, 'close').then(() => received)
  return { socket, closed, received: () => received }
}

describe('listen: every client is bounded (guide: one request never stalls the process)', () => {
  it('answers 408 and closes a client that trickles its headers past the header time-out', async () => {
    running = await listen((_req, res) => res.end('ok'), {
      port: 0,
      host: '127.0.0.1',
      limits: { headersTimeoutMs: 1000, requestTimeoutMs: 2000 },
    })
    const client = rawClient(running.port)
    client.socket.write('GET / HTTP/1.1\r\nHost: x\r\n')
    // One header byte at a time, for as long as the connection stays open: a Slowloris client.
    const trickle = setInterval(() => client.socket.write('X'), 200)
    const answer = await client.closed
    clearInterval(trickle)
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
  })

  it('closes connections past the connection cap on arrival, and serves those within it', async () => {
    running = await listen((_req, res) => res.end('ok'), {
      port: 0,
      host: '127.0.0.1',
      limits: { maxConnections: 2 },
    })
    const held = [rawClient(running.port), rawClient(running.port)]
    await Promise.all(held.map(({ socket }) => once(socket, 'connect')))
    const dropped = once(running.server, 'drop')
    const third = rawClient(running.port)
    await dropped
    expect(await third.closed).toBe('')
    held[0]!.socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    expect(await held[0]!.closed).toMatch(/^HTTP\/1\.1 200 [\s\S]*ok$/)
    held[1]!.socket.destroy()
  })
})

/** One HTTPS GET with a fresh connection: the status and body, or the error that ended it. */
function httpsGet(url: string): Promise<string> {
  return new Promise((resolve) => {
    get(url, { rejectUnauthorized: false, agent: false }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve(`${res.statusCode} ${body}`))
    }).once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })
}

describe('listen with TLS: a client that never starts its handshake is bounded too', () => {
  it('closes TCP connections that never send a ClientHello after the header time-out, and then serves new clients', async () => {
    const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
      notAfterDate: new Date(Date.now() + 24 * 3600 * 1000),
    })
    // Small time-outs and cap so the test needs only a few sockets; the service defaults are 10 s and 1024.
    running = await listen((_req, res) => res.end('ok'), {
      port: 0,
      host: '127.0.0.1',
      tls: { cert: pems.cert, key: pems.private },
      limits: { maxConnections: 2, headersTimeoutMs: 300, requestTimeoutMs: 300 },
    })
    const silent = [rawClient(running.port), rawClient(running.port)]
    await Promise.all(silent.map(({ socket }) => once(socket, 'connect')))
    // While they hold the cap, a new client is turned away...
    expect(await httpsGet(`${running.url}/`)).toMatch(/^(ECONNRESET|EPIPE)$|socket hang up/)
    // ...until the server closes them (Node's own handshake time-out is 120 s: they held the cap that long),
    expect(await Promise.all(silent.map(({ closed }) => closed))).toEqual(['', ''])
    // ...and then it serves again.
    expect(await httpsGet(`${running.url}/`)).toBe('200 ok')
  })
})

describe('readServerLimits', () => {
  it('reads the HTTP_* and SHUTDOWN_DRAIN_MS settings over the service defaults', () => {
    const env = createEnvReader({ HTTP_MAX_CONNECTIONS: '50', SHUTDOWN_DRAIN_MS: '25000' })
    expect(readServerLimits(env, { keepAliveTimeoutMs: 7000 })).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 7000,
      maxConnections: 50,
      drainTimeoutMs: 25_000,
    })
    env.done()
  })

  it('refuses a header time-out longer than the request time-out, naming both', () => {
    const env = createEnvReader({ HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '5000' })
    readServerLimits(env)
    expect(() => env.done()).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS \(60000\) must not be longer than HTTP_REQUEST_TIMEOUT_MS \(5000\)/,
    )
  })
})
