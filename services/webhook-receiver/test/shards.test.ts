import { CLUSTER_SLOTS, hashTagOf, keySlot } from '../src/queue/shards/key-slot'
import { fnv1a, shardKeyOf, shardOf } from '../src/queue/shards/shard-of'
import { layoutPrefixes, shardPrefixes, targetSlot } from '../src/queue/shards/shard-prefixes'
import { shareConcurrency } from '../src/queue/shards/share-concurrency'

// QUEUE_SHARDS (issue 38), the pure parts: where a key's slot is, which tags the shards get, which shard an
// event goes to, and how a worker's concurrency is shared. Real Redis checks the same in shards-*.test.ts.
describe('keySlot(key): the Redis Cluster hash slot, as CLUSTER KEYSLOT answers', () => {
  it('matches the cluster specification’s examples (CRC16-XMODEM modulo 16384)', () => {
    expect(keySlot('123456789')).toBe(0x31c3 % CLUSTER_SLOTS)
    expect(keySlot('foo')).toBe(12182)
    expect(keySlot('{user1000}.following')).toBe(keySlot('{user1000}.followers'))
  })

  it('hashes only the first non-empty {…}: an empty tag, or none, hashes the whole key', () => {
    expect(hashTagOf('{pf}:webhooks:wait')).toBe('pf')
    expect(hashTagOf('foo{}{bar}')).toBe('foo{}{bar}')
    expect(hashTagOf('foo{{bar}}zap')).toBe('{bar')
    expect(hashTagOf('foo{bar}{zap}')).toBe('bar')
    expect(hashTagOf('plain')).toBe('plain')
  })
})

describe('shardPrefixes(prefix, N): each shard’s queue under its own hash tag, slots spread evenly', () => {
  it('keeps the prefix as it is with 1 shard: today’s keys exactly', () => {
    expect(shardPrefixes('{pf}', 1)).toEqual(['{pf}'])
    expect(shardPrefixes('no-tag', 1)).toEqual(['no-tag'])
  })

  it('replaces the tag with a shard tag and keeps what surrounds it', () => {
    expect(shardPrefixes('{pf}', 3)).toEqual(['{pf.shard0of3.8}', '{pf.shard1of3.47}', '{pf.shard2of3.14}'])
    expect(shardPrefixes('app:{pf}:x', 3)[0]).toBe('app:{pf.shard0of3.8}:x')
  })

  it.each([2, 3, 4, 5, 8, 16, 64])(
    'puts the %i shards’ slots within a sixteenth of a share of their target, in order, far apart',
    (shards) => {
      const share = CLUSTER_SLOTS / shards
      const slots = shardPrefixes('{pf-prod}', shards).map((prefix) => keySlot(`${prefix}:webhooks:wait`))
      slots.forEach((slot, index) => {
        expect(Math.abs(slot - targetSlot(index, shards))).toBeLessThanOrEqual(Math.max(1, share / 16))
        if (index > 0) expect(slot - slots[index - 1]!).toBeGreaterThanOrEqual(share * (7 / 8) - 2)
      })
      expect(new Set(shardPrefixes('{pf-prod}', shards)).size).toBe(shards)
    },
  )

  it('finds the same tags in every process (deterministic)', () => {
    expect(shardPrefixes('{t-1}', 7)).toEqual(shardPrefixes('{t-1}', 7))
  })

  it('refuses more than one shard for a prefix without a hash tag', () => {
    expect(() => shardPrefixes('pf', 2)).toThrow(/hash tag/)
    expect(() => shardPrefixes('{}', 2)).toThrow(/hash tag/)
  })

  it('adds the old layout’s queues while a resharding runs, none twice', () => {
    expect(layoutPrefixes('{pf}', 3, 1)).toEqual([...shardPrefixes('{pf}', 3), '{pf}'])
    expect(layoutPrefixes('{pf}', 3, 3)).toEqual(shardPrefixes('{pf}', 3))
    expect(layoutPrefixes('{pf}', 3)).toEqual(shardPrefixes('{pf}', 3))
  })
})

describe('shardOf(event, N): a stable hash of the session, or of the webhookId without one', () => {
  const event = (webhookId: string, sessionId?: unknown) => ({ webhookId, data: { sessionId } })

  it('sends every event of a session to one shard, whatever its webhookId', () => {
    const shards = new Set(Array.from({ length: 50 }, (_, i) => shardOf(event(`wh_${i}`, 'sess_42'), 5)))
    expect(shards.size).toBe(1)
    expect(shardKeyOf(event('wh_1', 'sess_42'))).toBe('sess_42')
  })

  it('places an event without a session (or an empty or non-string one) by its webhookId', () => {
    expect(shardKeyOf(event('wh_1'))).toBe('wh_1')
    expect(shardKeyOf(event('wh_1', ''))).toBe('wh_1')
    expect(shardKeyOf(event('wh_1', 42))).toBe('wh_1')
    expect(shardKeyOf(null)).toBe('')
  })

  it('is FNV-1a 32 of the UTF-8 bytes (the published test values), modulo N', () => {
    expect(fnv1a('')).toBe(0x811c9dc5)
    expect(fnv1a('a')).toBe(0xe40c292c)
    expect(fnv1a('foobar')).toBe(0xbf9cf968)
    expect(shardOf(event('wh_1', 'foobar'), 7)).toBe(0xbf9cf968 % 7)
    expect(shardOf(event('wh_1', 'foobar'), 1)).toBe(0)
  })

  it('spreads 3000 sessions over 3 shards about evenly (each between 30 % and 37 %)', () => {
    const counts = [0, 0, 0]
    for (let i = 0; i < 3000; i += 1) counts[shardOf(event('wh_x', `sess_${i}`), 3)]! += 1
    for (const count of counts) {
      expect(count).toBeGreaterThan(900)
      expect(count).toBeLessThan(1110)
    }
  })
})

describe('shareConcurrency(WORKER_CONCURRENCY, queues): per process, divided among the shards', () => {
  it('divides evenly, the remainder to the first, at least one each', () => {
    expect(shareConcurrency(10, 1)).toEqual([10])
    expect(shareConcurrency(10, 3)).toEqual([4, 3, 3])
    expect(shareConcurrency(9, 3)).toEqual([3, 3, 3])
    expect(shareConcurrency(2, 3)).toEqual([1, 1, 1])
  })
})
