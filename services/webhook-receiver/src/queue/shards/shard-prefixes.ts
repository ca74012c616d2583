import { CLUSTER_SLOTS, keySlot } from './key-slot'

/** The most queues `QUEUE_SHARDS` may ask for. */
export const MAX_QUEUE_SHARDS = 64

/**
 * The hash tag of a queue prefix (`{pf}` in `{pf}`), with where it stands; undefined when it has none: as Redis
 * Cluster reads a key, its first `{` and the first `}` after it, with something between (`x{}{pf}` has none).
 */
export function prefixHashTag(prefix: string): { start: number; end: number; tag: string } | undefined {
  const open = prefix.indexOf('{')
  const close = open === -1 ? -1 : prefix.indexOf('}', open + 1)
  if (close <= open + 1) return undefined
  return { start: open, end: close + 1, tag: prefix.slice(open + 1, close) }
}

/** The slot shard `index` of `shards` aims at: the middle of its even share of the 16384 slots. */
export function targetSlot(index: number, shards: number): number {
  return Math.floor(((2 * index + 1) * CLUSTER_SLOTS) / (2 * shards))
}

/**
 * The hash tag of shard `index` of `shards`: `<tag>.shard<index>of<shards>.<k>`, with `k` the first number from 0
 * whose tag's slot lies within a sixteenth of a share of `targetSlot`, so that the shards' slots are spread
 * evenly over 0..16383 (at least 7/8 of a share apart). Deterministic: every process finds the same tags.
 */
export function shardTag(tag: string, index: number, shards: number): string {
  const target = targetSlot(index, shards)
  const reach = Math.max(1, Math.floor(CLUSTER_SLOTS / shards / 16))
  for (let k = 0; ; k += 1) {
    const candidate = `${tag}.shard${index}of${shards}.${k}`
    if (Math.abs(keySlot(`{${candidate}}`) - target) <= reach) return candidate
  }
}

/**
 * The key prefix of each of the `shards` queues: with 1, the prefix itself (the keys of a receiver without
 * shards, exactly); with more, the prefix with its hash tag replaced by each shard's (`shardTag`), so
 * `{pf}` becomes `{pf.shard0of3.12}`, `{pf.shard1of3.7}`, … and whatever surrounds the tag stays. More than one
 * shard needs a hash tag in the prefix (a queue's keys must share a slot); `loadConfig` checks it.
 *
 * @example
 * shardPrefixes('{pf}', 1) // ['{pf}']
 */
export function shardPrefixes(prefix: string, shards: number): string[] {
  if (shards === 1) return [prefix]
  const found = prefixHashTag(prefix)
  if (!found)
    throw new TypeError(`a queue prefix with a hash tag such as {pf} is needed for ${shards} shards`)
  const { start, end, tag } = found
  return Array.from(
    { length: shards },
    (_, index) => `${prefix.slice(0, start)}{${shardTag(tag, index, shards)}}${prefix.slice(end)}`,
  )
}

/**
 * Every queue a worker or the dead-letter command reads: each shard's, and while a resharding runs
 * (`reshardFrom`), each of the old layout's too, whose jobs and dead letters are still there.
 */
export function layoutPrefixes(prefix: string, shards: number, reshardFrom?: number): string[] {
  const prefixes = shardPrefixes(prefix, shards)
  if (reshardFrom === undefined || reshardFrom === shards) return prefixes
  return [...prefixes, ...shardPrefixes(prefix, reshardFrom)]
}
