import type { sendUnaryData, ServerUnaryCall, ServiceDefinition } from '@grpc/grpc-js'
import { decodeOtlpProtobuf } from './decode-otlp-protobuf'
import { MAX_EXPORT_BYTES, type OnExport, type OtlpServer } from './otlp-protocol'

// The method of opentelemetry/proto/collector/trace/v1/trace_service.proto (package, service, rpc), as gRPC
// names it on the wire.
const EXPORT_PATH = '/opentelemetry.proto.collector.trace.v1.TraceService/Export'

// The messages stay bytes: decodeOtlpProtobuf reads the request, and an empty ExportTraceServiceResponse is
// zero bytes. No .proto file, no code generation.
const raw = (bytes: Buffer) => bytes
const TRACE_SERVICE: ServiceDefinition = {
  Export: {
    path: EXPORT_PATH,
    requestStream: false,
    responseStream: false,
    requestSerialize: raw,
    requestDeserialize: raw,
    responseSerialize: raw,
    responseDeserialize: raw,
  },
}

/**
 * Serves the OTLP/gRPC trace service (`TraceService/Export`, plaintext) on a free port of 127.0.0.1; `url` is
 * `http://127.0.0.1:<port>`, which the exporter reads as an insecure channel. An undecodable request is
 * `INVALID_ARGUMENT`.
 */
export async function startOtlpGrpcServer(onExport: OnExport): Promise<OtlpServer> {
  // Loaded here only: the light `@pf/testkit` entry must not load gRPC for tests that never use it.
  const { Server, ServerCredentials, status } = await import('@grpc/grpc-js')
  // grpc-js refuses messages over 4 MiB by default; the HTTP path's bound holds here too.
  const server = new Server({ 'grpc.max_receive_message_length': MAX_EXPORT_BYTES })
  server.addService(TRACE_SERVICE, {
    Export(call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) {
      try {
        onExport(decodeOtlpProtobuf(call.request), 'grpc')
      } catch {
        return callback({ code: status.INVALID_ARGUMENT, details: 'not OTLP protobuf' })
      }
      callback(null, Buffer.alloc(0))
    },
  })
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  )
  return {
    url: `http://127.0.0.1:${port}`,
    // Like the HTTP server's closeAllConnections: an exporter's open channel must not hold a test's end.
    close: async () => server.forceShutdown(),
  }
}
