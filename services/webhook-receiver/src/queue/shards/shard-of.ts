const encoder = new TextEncoder()

/** What places an event: its `data.sessionId` when it has one (a non-empty string), else its `webhookId`. */
export function shardKeyOf(event: unknown): string {
  const envelope = event as { webhookId?: unknown; data?: { sessionId?: unknown } } | null
  const sessionId = envelope?.data?.sessionId
  if (typeof sessionId === 'string' && sessionId.length > 0) return sessionId
  return String(envelope?.webhookId ?? '')
}

/** 32-bit FNV-1a of a string's UTF-8 bytes: stable across processes, versions and machines. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (const byte of encoder.encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0
  return hash
}

/**
 * The shard (0 to `shards` - 1) that holds an event: FNV-1a of its session id (`shardKeyOf`) modulo `shards`.
 * Every event of a session lands in the same shard, and so does every delivery of one webhookId (the platform
 * resends the same signed body), which keeps per-session ordering and deduplication within one queue.
 *
 * @example
 * shardOf({ webhookId: 'wh_1', data: { sessionId: 'sess_1' } }, 3)
 */
export function shardOf(event: unknown, shards: number): number {
  return shards === 1 ? 0 : fnv1a(shardKeyOf(event)) % shards
}
