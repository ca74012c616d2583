import { CHUNK_CHARS, jsonArrayChunks } from '../src/json-array-chunks'

async function chunksOf(records: Iterable<unknown> | AsyncIterable<unknown>): Promise<string[]> {
  const chunks: string[] = []
  for await (const chunk of jsonArrayChunks(records)) chunks.push(chunk)
  return chunks
}

describe('jsonArrayChunks: a delivery body read as it is consumed', () => {
  it('makes one JSON array of the records, none included', async () => {
    expect((await chunksOf([])).join('')).toBe('[]')
    expect(JSON.parse((await chunksOf([{ id: 'c1' }])).join(''))).toEqual([{ id: 'c1' }])
  })

  it('passes text on in chunks of about CHUNK_CHARS, never one per record nor all at once', async () => {
    const records = Array.from({ length: 20_000 }, (_, i) => ({
      id: `c${i}`,
      name: `Company number ${i} GmbH`,
    }))
    async function* streamed() {
      yield* records
    }
    const chunks = await chunksOf(streamed())
    expect(JSON.parse(chunks.join(''))).toEqual(records)
    const longest = Math.max(...records.map((r) => JSON.stringify(r).length)) + 1
    for (const chunk of chunks) expect(chunk.length).toBeLessThan(CHUNK_CHARS + longest + 1)
    const total = chunks.join('').length
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks.length).toBeLessThanOrEqual(Math.ceil(total / CHUNK_CHARS) + 1)
  })
})
