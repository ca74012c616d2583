import type { CollectedSpan } from './collected-span'

/** The three values of `OTEL_EXPORTER_OTLP_PROTOCOL`: what an export request arrived as. */
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc'

/** Called once per export request a server decoded, with its spans (possibly none). */
export type OnExport = (spans: CollectedSpan[], protocol: OtlpProtocol) => void

/** A listening OTLP server: its base URL (for `OTEL_EXPORTER_OTLP_ENDPOINT`) and how to stop it. */
export interface OtlpServer {
  url: string
  close(): Promise<void>
}

/** The largest export request a test collector reads: far above an SDK batch (512 spans by default). */
export const MAX_EXPORT_BYTES = 16 * 1024 * 1024
