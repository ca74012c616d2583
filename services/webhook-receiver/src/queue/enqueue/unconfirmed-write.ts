/** `WAIT`'s answer checked: an error when fewer replicas than wanted confirmed the write, else undefined. */
export function unconfirmedWrite(confirmed: unknown, wanted: number): Error | undefined {
  if (wanted === 0 || (confirmed as number) >= wanted) return undefined
  return new Error(`only ${confirmed as number} of ${wanted} replicas confirmed the write`)
}
