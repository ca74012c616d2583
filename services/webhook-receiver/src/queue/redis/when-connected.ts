import type { RedisConnection } from './create-redis-connection'

/**
 * Resolves once `connection` is ready. A first connection is worth waiting for (up to `timeoutMs`); once it was
 * up, a lost connection fails at once (the producer has no offline queue): the platform gets its 503 fast and
 * retries.
 */
export function whenConnected(connection: RedisConnection, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (connection.status === 'ready') return resolve()
    if (connection.status !== 'connecting' && connection.status !== 'connect' && connection.status !== 'wait')
      return reject(new Error(`Redis connection is ${connection.status}`))
    const done = (error?: Error) => {
      clearTimeout(timer)
      connection.off('ready', onReady)
      if (error) reject(error)
      else resolve()
    }
    const onReady = () => done()
    const timer = setTimeout(() => done(new Error('Redis did not connect in time')), timeoutMs)
    connection.on('ready', onReady)
  })
}
