import { waitUntil } from '../lib/wait-until'
import type { CollectedSpan } from './collected-span'
import type { OnExport, OtlpProtocol } from './otlp-protocol'
import { startOtlpGrpcServer } from './start-otlp-grpc-server'
import { startOtlpHttpServer } from './start-otlp-http-server'

export interface OtlpCollector {
  /** The base URL, for `OTEL_EXPORTER_OTLP_ENDPOINT` (with the protocol the collector was started for). */
  url: string
  /** Every span received so far (none kept with `keep: false`). */
  spans(): CollectedSpan[]
  /** How many spans were received, kept or not. */
  count(): number
  /** How many export requests arrived in each protocol: proof of what an exporter really sent. */
  exports(): Record<OtlpProtocol, number>
  /** Resolves with the spans once `check` holds for them; throws naming `what` after `timeoutMs`. */
  waitForSpans(
    check: (spans: CollectedSpan[]) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<CollectedSpan[]>
  close(): Promise<void>
}

export interface StartOtlpCollectorOptions {
  /** `false`: count the spans without keeping them (a benchmark's millions would not fit). */
  keep?: boolean
  /**
   * `http` (default): OTLP/HTTP, both `http/protobuf` and `http/json`, at `POST /v1/traces`. `grpc`: the OTLP/gRPC
   * trace service. An exporter's protocol must match: gRPC and HTTP cannot share the port here.
   */
  protocol?: 'http' | 'grpc'
  /** Called with the spans of each export request as it arrives (kept or not): a live view, such as the sandbox's. */
  onSpans?: (spans: CollectedSpan[]) => void
}

/**
 * An OTLP collector in the test's process, for the three protocols the services may export with
 * (`OTEL_EXPORTER_OTLP_PROTOCOL`): it decodes `http/json`, `http/protobuf` or `grpc` export requests and keeps
 * their spans (with `keep: false`, counts them only).
 *
 * @example
 * const collector = await startOtlpCollector() // or startOtlpCollector({ protocol: 'grpc' })
 * // start a process with OTEL_EXPORTER_OTLP_ENDPOINT=collector.url (and OTEL_EXPORTER_OTLP_PROTOCOL=grpc)
 * await collector.waitForSpans((spans) => spans.some((s) => s.name === 'webhook.receive'), 'the request span')
 */
export async function startOtlpCollector({
  keep = true,
  protocol = 'http',
  onSpans,
}: StartOtlpCollectorOptions = {}): Promise<OtlpCollector> {
  const received: CollectedSpan[] = []
  const exports: Record<OtlpProtocol, number> = { 'http/protobuf': 0, 'http/json': 0, grpc: 0 }
  let count = 0
  const onExport: OnExport = (spans, arrivedAs) => {
    exports[arrivedAs] += 1
    count += spans.length
    if (keep) received.push(...spans)
    onSpans?.(spans)
  }
  const server =
    protocol === 'grpc' ? await startOtlpGrpcServer(onExport) : await startOtlpHttpServer(onExport)
  return {
    url: server.url,
    spans: () => [...received],
    count: () => count,
    exports: () => ({ ...exports }),
    async waitForSpans(check, what, timeoutMs = 30_000) {
      await waitUntil(async () => check(received), what, timeoutMs)
      return [...received]
    },
    close: () => server.close(),
  }
}
