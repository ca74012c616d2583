export { startRedis } from './start-redis'
export type { RedisHandle, StartRedisOptions } from './start-redis'
export { redisPing } from './redis-ping'
