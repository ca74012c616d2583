/** Redis Cluster's hash slots: a key's slot is CRC16 of its hash tag (or of the whole key) modulo this. */
export const CLUSTER_SLOTS = 16384

const TABLE = new Uint16Array(256)
for (let byte = 0; byte < 256; byte += 1) {
  let crc = byte << 8
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1
  TABLE[byte] = crc & 0xffff
}

/** The part of a key Redis Cluster hashes: the text inside its first non-empty `{…}`, else the whole key. */
export function hashTagOf(key: string): string {
  const open = key.indexOf('{')
  if (open === -1) return key
  const close = key.indexOf('}', open + 1)
  return close > open + 1 ? key.slice(open + 1, close) : key
}

/**
 * The Redis Cluster hash slot of a key (CRC16-CCITT/XMODEM of its hash tag's UTF-8 bytes, modulo 16384), as
 * `CLUSTER KEYSLOT` answers.
 *
 * @example
 * keySlot('{pf}:webhooks:wait') // the slot of "pf"
 */
export function keySlot(key: string): number {
  let crc = 0
  for (const byte of Buffer.from(hashTagOf(key), 'utf8'))
    crc = ((crc << 8) & 0xffff) ^ TABLE[(crc >> 8) ^ byte]!
  return crc % CLUSTER_SLOTS
}
