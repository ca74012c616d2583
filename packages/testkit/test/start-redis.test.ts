import { startRedis } from '@pf/testkit/redis'
import { redisPing } from '../src/redis/redis-ping'

const hostPort = (url: string) => {
  const { hostname, port } = new URL(url)
  return [hostname, Number(port)] as const
}

describe('startRedis starts a private, throw-away redis-server', () => {
  it('answers PING on its own port, and stop/start take it down and up again on that port', async () => {
    const redis = await startRedis()
    try {
      expect(redis.isPrivate).toBe(true)
      expect(redis.url).not.toBe('redis://127.0.0.1:6379')
      expect(await redisPing(...hostPort(redis.url))).toBe(true)
      await redis.stop()
      expect(await redisPing(...hostPort(redis.url))).toBe(false)
      await redis.start()
      expect(await redisPing(...hostPort(redis.url))).toBe(true)
    } finally {
      await redis.stop()
    }
  })

  it('pause freezes it with its connections open, resume lets it answer again, and stop ends a frozen one', async () => {
    const redis = await startRedis()
    try {
      redis.pause()
      const [host, port] = hostPort(redis.url)
      // redisPing gives up after its own time-out: a frozen server accepts the connection and never answers.
      expect(await redisPing(host, port)).toBe(false)
      redis.resume()
      expect(await redisPing(host, port)).toBe(true)
      redis.pause()
    } finally {
      await redis.stop()
    }
  })

  it('falls back to the given URL when the binary is not installed', async () => {
    const redis = await startRedis({ binary: 'no-such-redis-server', fallbackUrl: 'redis://127.0.0.1:6390' })
    expect(redis).toMatchObject({ url: 'redis://127.0.0.1:6390', isPrivate: false })
    await redis.stop()
  })
})
