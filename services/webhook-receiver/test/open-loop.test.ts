import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { openLoop } from '../bench/open-loop'

// The bench's open-loop client must end every run with each request answered or counted as an error, and
// time each request from when it was due: a connection the server closed once left a request written to it
// unanswered, and the whole `pnpm bench` waited forever.
describe('bench open-loop client', () => {
  let server: Server
  let received = 0

  beforeAll(async () => {
    server = createServer((req, res) => {
      received += 1
      const turn = received % 5
      req.resume()
      req.on('end', () => {
        // One request in five loses its connection unanswered, one in five closes it after the answer.
        if (turn === 0) return req.socket.destroy()
        res
          .writeHead(200, { 'content-length': '2', ...(turn === 1 ? { connection: 'close' } : {}) })
          .end('{}')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  })

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('settles every request although the server closes connections, with or without an answer', async () => {
    const { port } = server.address() as AddressInfo
    const result = await openLoop({
      url: `http://127.0.0.1:${port}/webhooks/pf`,
      rate: 200,
      durationSeconds: 1,
      connections: 4,
      nextRequest: () => ({ body: '{}', headers: { 'content-type': 'application/json' } }),
    })

    expect(result.sent).toBe(200)
    expect(received).toBe(200)
    expect(result.errors).toBe(40)
    expect(result.answered).toBe(160)
    expect(result.non2xx).toBe(0)
  })
})
