/** The records a delivery reads: streamed from the store, or an array already in memory. */
export type DeliveredRecords = AsyncIterable<unknown> | Iterable<unknown>

/**
 * Records as the chunks of one JSON array, one chunk per record, read as they are consumed: a delivery of
 * millions of records never holds more than one of them as text.
 */
export async function* jsonArrayChunks(records: DeliveredRecords): AsyncGenerator<string> {
  yield '['
  let first = true
  for await (const record of records) {
    yield (first ? '' : ',') + JSON.stringify(record)
    first = false
  }
  yield ']'
}
