/**
 * One field of a protobuf message as the wire carries it: a varint (wire type 0), 8 bytes (1: fixed64, double),
 * length-delimited bytes (2: strings, bytes, sub-messages) or 4 bytes (5: fixed32, float).
 */
export type ProtobufField =
  { field: number; wireType: 0; value: bigint } | { field: number; wireType: 1 | 2 | 5; value: Buffer }

// A varint is at most 10 bytes (64 bits, 7 per byte): more is a corrupt message, not a big number.
const MAX_VARINT_BYTES = 10

function readVarint(bytes: Buffer, start: number): { value: bigint; end: number } {
  let value = 0n
  for (let i = 0; i < MAX_VARINT_BYTES; i++) {
    const byte = bytes[start + i]
    if (byte === undefined) throw new RangeError(`protobuf: varint truncated at byte ${start}`)
    value |= BigInt(byte & 0x7f) << BigInt(7 * i)
    if ((byte & 0x80) === 0) return { value, end: start + i + 1 }
  }
  throw new RangeError(`protobuf: varint longer than ${MAX_VARINT_BYTES} bytes at byte ${start}`)
}

function slice(bytes: Buffer, start: number, length: number): Buffer {
  if (start + length > bytes.length) throw new RangeError(`protobuf: field truncated at byte ${start}`)
  return bytes.subarray(start, start + length)
}

/**
 * Splits one protobuf message into its fields, in wire order (the wire format:
 * https://protobuf.dev/programming-guides/encoding/). Values stay raw: what a field means is the caller's
 * schema. Throws a `RangeError` on a truncated message or a group (wire types 3 and 4, which proto3 never writes).
 *
 * @example
 * readProtobufFields(Buffer.from([0x08, 0x96, 0x01])) // [{ field: 1, wireType: 0, value: 150n }]
 */
export function readProtobufFields(message: Uint8Array): ProtobufField[] {
  const bytes = Buffer.from(message.buffer, message.byteOffset, message.byteLength)
  const fields: ProtobufField[] = []
  let at = 0
  while (at < bytes.length) {
    const tag = readVarint(bytes, at)
    const field = Number(tag.value >> 3n)
    const wireType = Number(tag.value & 7n)
    at = tag.end
    if (wireType === 0) {
      const { value, end } = readVarint(bytes, at)
      fields.push({ field, wireType, value })
      at = end
    } else if (wireType === 2) {
      const length = readVarint(bytes, at)
      fields.push({ field, wireType, value: slice(bytes, length.end, Number(length.value)) })
      at = length.end + Number(length.value)
    } else if (wireType === 1 || wireType === 5) {
      const size = wireType === 1 ? 8 : 4
      fields.push({ field, wireType, value: slice(bytes, at, size) })
      at += size
    } else {
      throw new RangeError(`protobuf: unsupported wire type ${wireType} at byte ${at}`)
    }
  }
  return fields
}
