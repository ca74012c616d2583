import { connect } from 'node:net'

export type RespValue = string | number | null | RespValue[]

/**
 * Sends one command to 127.0.0.1:port and resolves with its reply, speaking RESP directly (no client
 * library): enough for test set-up (INFO, SENTINEL, CLUSTER). An error reply rejects.
 */
export function redisCommand(port: number, args: string[], timeoutMs = 2000): Promise<RespValue> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port })
    let buffered = Buffer.alloc(0)
    socket.setTimeout(timeoutMs, () => {
      socket.destroy()
      reject(new Error(`port ${port} did not answer ${args[0]}`))
    })
    socket.once('error', reject)
    socket.once('connect', () =>
      socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`),
    )
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk])
      const parsed = parse(buffered, 0)
      if (!parsed) return
      socket.destroy()
      if (parsed.value instanceof Error) reject(parsed.value)
      else resolve(parsed.value as RespValue)
    })
  })
}

/** One RESP value from `at`, or undefined when the buffer does not hold all of it yet. */
function parse(buffer: Buffer, at: number): { value: RespValue | Error; next: number } | undefined {
  const end = buffer.indexOf('\r\n', at)
  if (end === -1) return undefined
  const line = buffer.toString('utf8', at + 1, end)
  switch (buffer[at] as number) {
    case 0x2b: // +
      return { value: line, next: end + 2 }
    case 0x2d: // -
      return { value: new Error(line), next: end + 2 }
    case 0x3a: // :
      return { value: Number(line), next: end + 2 }
    case 0x24: {
      // $
      const length = Number(line)
      if (length < 0) return { value: null, next: end + 2 }
      if (buffer.length < end + 2 + length + 2) return undefined
      return { value: buffer.toString('utf8', end + 2, end + 2 + length), next: end + 2 + length + 2 }
    }
    case 0x2a: {
      // *
      const count = Number(line)
      if (count < 0) return { value: null, next: end + 2 }
      const items: RespValue[] = []
      let next = end + 2
      for (let i = 0; i < count; i += 1) {
        const item = parse(buffer, next)
        if (!item) return undefined
        items.push(item.value as RespValue)
        next = item.next
      }
      return { value: items, next }
    }
    default:
      return { value: new Error(`unexpected RESP reply: ${line}`), next: end + 2 }
  }
}
