/** A character code's bit in an initials mask: bins by code modulo 32, like the letter counts. */
export const initialBit = (code: number): number => (code < 0 ? 0 : 1 << (code & 31))

/**
 * For each posting (a name holding a part), the initials of all that name's parts as a mask (`initialBit`),
 * laid out like the postings: a search reads them in the same sequential pass as the holders, and leaves out a
 * holder that lacks an initial the query needs before it costs a random read of its parts.
 * `initialOf(id)` is part id's initial as the search compares it (−1: none).
 */
export function holderInitials(
  postings: Int32Array,
  partOffsets: Int32Array,
  partIds: Int32Array,
  initialOf: (id: number) => number,
): Int32Array {
  const ofName = new Int32Array(partOffsets.length - 1)
  for (let name = 0; name < ofName.length; name += 1)
    for (let k = partOffsets[name] as number; k < (partOffsets[name + 1] as number); k += 1)
      ofName[name] = (ofName[name] as number) | initialBit(initialOf(partIds[k] as number))
  return Int32Array.from(postings, (name) => ofName[name] as number)
}
