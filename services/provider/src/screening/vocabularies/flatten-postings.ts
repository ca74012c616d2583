/**
 * Lists of holders per id, flattened into one array: the holders of `id` are
 * `postings[postingOffsets[id]]` up to `postings[postingOffsets[id + 1]]` (compact and cache-friendly at a
 * million names, where an array per id is not).
 */
export function flattenPostings(holders: readonly number[][]): {
  postingOffsets: Int32Array
  postings: Int32Array
} {
  const postingOffsets = new Int32Array(holders.length + 1)
  holders.forEach((list, id) => (postingOffsets[id + 1] = (postingOffsets[id] as number) + list.length))
  const postings = new Int32Array(postingOffsets[holders.length] as number)
  holders.forEach((list, id) => postings.set(list, postingOffsets[id] as number))
  return { postingOffsets, postings }
}
