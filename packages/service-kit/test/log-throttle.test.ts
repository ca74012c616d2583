import { Writable } from 'node:stream'
import express from 'express'
import request from 'supertest'
import { createErrorHandler, createLogger, createLogThrottle, ServiceError } from '../src'

describe('createLogThrottle', () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  it('logs the first occurrence of a key, then one line per window with the count it held back', () => {
    const throttle = createLogThrottle({ windowMs: 1000 })
    const lines: number[] = []
    for (let i = 0; i < 400; i += 1) throttle('redis down', (suppressed) => lines.push(suppressed))
    expect(lines).toEqual([0])
    jest.advanceTimersByTime(1000)
    expect(lines).toEqual([0, 399])
    throttle('redis down', (suppressed) => lines.push(suppressed))
    jest.advanceTimersByTime(1000)
    expect(lines).toEqual([0, 399, 1])
    // A quiet window closes the run: the next occurrence is logged in full again.
    jest.advanceTimersByTime(1000)
    throttle('redis down', (suppressed) => lines.push(suppressed))
    expect(lines).toEqual([0, 399, 1, 0])
  })

  it('follows each key on its own, and at most maxKeys of them', () => {
    const throttle = createLogThrottle({ windowMs: 1000, maxKeys: 2 })
    const lines: string[] = []
    for (const key of ['a', 'b', 'a', 'c', 'a']) throttle(key, (n) => lines.push(`${key}${n}`))
    // 'a' was forgotten when 'c' came (the oldest of two), so its next occurrence is logged again.
    expect(lines).toEqual(['a0', 'b0', 'c0', 'a0'])
  })
})

class StoreDownError extends ServiceError<'ERR_STORE_UNAVAILABLE'> {
  readonly code = 'ERR_STORE_UNAVAILABLE'
}
class BadInputError extends ServiceError<'ERR_BAD'> {
  readonly code = 'ERR_BAD'
}

describe('createErrorHandler: a dependency outage does not flood the logs', () => {
  it('logs one line for 100 failures of one kind, with its stack; client errors are not logged', async () => {
    const lines: Record<string, unknown>[] = []
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>)
        done()
      },
    })
    const logger = createLogger({ name: 'test', destination })
    const app = express()
      .get('/down', () => {
        throw new StoreDownError('event store unavailable')
      })
      .get('/bad', () => {
        throw new BadInputError('bad input')
      })
      .use(
        createErrorHandler({
          logger,
          table: { ERR_STORE_UNAVAILABLE: 503, ERR_BAD: 400 },
          logWindowMs: 600_000,
        }),
      )
    for (let i = 0; i < 100; i += 1) expect((await request(app).get('/down')).status).toBe(503)
    expect((await request(app).get('/bad')).status).toBe(400)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ msg: 'request failed', err: { code: 'ERR_STORE_UNAVAILABLE' } })
  })
})
