import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { waitUntil } from '../lib/wait-until'
import { collectedSpansOf, type CollectedSpan } from './collected-span'

export interface OtlpCollector {
  /** The base URL, for `OTEL_EXPORTER_OTLP_ENDPOINT` (with `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`). */
  url: string
  /** Every span received so far (none kept with `keep: false`). */
  spans(): CollectedSpan[]
  /** How many spans were received, kept or not. */
  count(): number
  /** Resolves with the spans once `check` holds for them; throws naming `what` after `timeoutMs`. */
  waitForSpans(
    check: (spans: CollectedSpan[]) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<CollectedSpan[]>
  close(): Promise<void>
}

const MAX_BODY_BYTES = 16 * 1024 * 1024

/**
 * An OTLP/HTTP collector in the test's process: accepts `http/json` at `POST /v1/traces` (the OTLP/JSON
 * encoding of `ExportTraceServiceRequest`) and keeps the spans (with `keep: false`, counts them only); anything
 * else is 404 or 415.
 *
 * @example
 * const collector = await startOtlpCollector()
 * // start a process with OTEL_EXPORTER_OTLP_ENDPOINT=collector.url, OTEL_EXPORTER_OTLP_PROTOCOL=http/json
 * await collector.waitForSpans((spans) => spans.some((s) => s.name === 'webhook.receive'), 'the request span')
 */
export async function startOtlpCollector({ keep = true }: { keep?: boolean } = {}): Promise<OtlpCollector> {
  const received: CollectedSpan[] = []
  let count = 0
  const server = createServer((request, response) => {
    const answer = (status: number, body: object) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    if (request.method !== 'POST' || request.url?.split('?')[0] !== '/v1/traces') return answer(404, {})
    if (!String(request.headers['content-type']).startsWith('application/json'))
      return answer(415, { message: 'this collector accepts http/json only' })
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    })
    request.on('end', () => {
      try {
        const spans = collectedSpansOf(JSON.parse(Buffer.concat(chunks).toString('utf8')))
        count += spans.length
        // A benchmark's collector only counts: millions of spans would not fit.
        if (keep) received.push(...spans)
        answer(200, { partialSuccess: {} })
      } catch {
        answer(400, { message: 'not OTLP/JSON' })
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => [...received],
    count: () => count,
    async waitForSpans(check, what, timeoutMs = 30_000) {
      await waitUntil(async () => check(received), what, timeoutMs)
      return [...received]
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
