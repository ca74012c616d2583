import { connect, type Socket } from 'node:net'
import { percentile } from './stats'

export interface OpenLoopOptions {
  url: string
  /** Requests per second, sent at steady intervals whatever the answers do. */
  rate: number
  durationSeconds: number
  /** Keep-alive connections, one request in flight on each; requests due while all are busy wait in line. */
  connections: number
  nextRequest: () => { body: string; headers: Record<string, string> }
}

export interface OpenLoopResult {
  p50: number
  p99: number
  max: number
  sent: number
  /** Requests answered (any status); the others are errors. */
  answered: number
  non2xx: number
  errors: number
}

interface Connection {
  socket: Socket
  buffered: Buffer
  /** When the request in flight was due (NaN when idle). */
  due: number
}

const HEADER_END = Buffer.from('\r\n\r\n')

/**
 * An open-loop load: request i is due at start + i / rate, whatever happened to the others, and its latency is
 * counted from that moment, not from when a connection was free, so a stall shows as the wait it caused (no
 * coordinated omission; autocannon's `overallRate` sends each second's quota in a burst instead). Requests are
 * written on raw keep-alive sockets, so the generator spends a few microseconds per request and its own pauses
 * stay out of the figures as far as they can.
 */
export async function openLoop({
  url,
  rate,
  durationSeconds,
  connections: connectionCount,
  nextRequest,
}: OpenLoopOptions): Promise<OpenLoopResult> {
  const target = new URL(url)
  const total = Math.round(rate * durationSeconds)
  // Every request serialised before the clock starts, into one buffer outside the JavaScript heap: made as
  // they are sent, they cost the generator time at the moments it measures; held as strings, its garbage
  // collection showed up in the latencies.
  const ends = new Int32Array(total + 1)
  const chunks: Buffer[] = []
  for (let i = 0; i < total; i += 1) {
    const { body, headers } = nextRequest()
    const lines = Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(body)) })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')
    const request = Buffer.from(
      `POST ${target.pathname} HTTP/1.1\r\nhost: ${target.host}\r\n${lines}\r\n${body}`,
    )
    chunks.push(request)
    ends[i + 1] = (ends[i] as number) + request.length
  }
  const wire = Buffer.concat(chunks)
  chunks.length = 0
  const latencies: number[] = []
  let non2xx = 0
  let errors = 0
  let sent = 0
  let settled = 0
  const waiting: number[] = []
  // Idle connections are reused oldest first, so none sits idle past the server's keep-alive timeout (Node's is
  // 5 s) at low rates; a connection the server closes anyway is replaced, and a request it held counts as an
  // error instead of waiting forever (a write to a closed socket is dropped without an 'error' event).
  const idle: Connection[] = []
  const live = new Set<Connection>()
  let finish: () => void = () => {}
  const settle = () => {
    settled += 1
    if (settled === total) finish()
  }
  let start = 0
  const dueOf = (index: number) => start + (index * 1000) / rate
  const dispatch = (connection: Connection) => {
    const index = waiting.shift()
    if (index === undefined) return idle.push(connection)
    connection.due = dueOf(index)
    connection.socket.write(wire.subarray(ends[index], ends[index + 1]))
  }
  const open = () =>
    new Promise<Connection>((resolve, reject) => {
      const socket = connect({ host: target.hostname, port: Number(target.port), noDelay: true })
      const connection: Connection = { socket, buffered: Buffer.alloc(0), due: Number.NaN }
      socket.once('connect', () => {
        live.add(connection)
        resolve(connection)
      })
      socket.once('error', reject)
      socket.on('error', () => {})
      socket.on('close', () => {
        live.delete(connection)
        const at = idle.indexOf(connection)
        if (at !== -1) idle.splice(at, 1)
        if (!Number.isNaN(connection.due)) {
          connection.due = Number.NaN
          errors += 1
          settle()
        }
        if (settled < total) open().then(dispatch, () => {})
      })
      socket.on('data', (chunk: Buffer) => {
        connection.buffered = connection.buffered.length ? Buffer.concat([connection.buffered, chunk]) : chunk
        const end = connection.buffered.indexOf(HEADER_END)
        if (end === -1) return
        const head = connection.buffered.subarray(0, end).toString('latin1')
        const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0)
        if (connection.buffered.length < end + 4 + length) return
        connection.buffered = connection.buffered.subarray(end + 4 + length)
        latencies.push(performance.now() - connection.due)
        connection.due = Number.NaN
        const status = Number(head.slice(9, 12))
        if (status < 200 || status >= 300) non2xx += 1
        settle()
        // A connection the server is closing is not reused: its replacement takes the next request.
        if (!/^connection:\s*close/im.test(head)) dispatch(connection)
      })
    })
  const connections = await Promise.all(Array.from({ length: connectionCount }, open))
  idle.push(...connections)
  start = performance.now()
  await new Promise<void>((resolve) => {
    finish = resolve
    const tick = () => {
      // Requests 0 .. floor(elapsed × rate) are due by now (request 0 at the start itself).
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1)
      while (sent < due) {
        waiting.push(sent)
        sent += 1
        const connection = idle.shift()
        if (connection) dispatch(connection)
      }
      if (sent < total) setTimeout(tick, 1)
    }
    tick()
  })
  for (const connection of live) connection.socket.destroy()
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: Math.max(...latencies),
    sent,
    answered: latencies.length,
    non2xx,
    errors,
  }
}
