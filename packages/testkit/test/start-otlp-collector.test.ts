import { credentials, makeGenericClientConstructor, status, type ServiceError } from '@grpc/grpc-js'
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer'
import { startOtlpCollector } from '@pf/testkit'

// One span's ExportTraceServiceRequest, written by hand in the wire format: resource_spans { scope_spans {
// spans { trace_id, span_id, name } } }. The exporters' own bytes are tested in decode-otlp-protobuf.test.ts.
function oneSpanRequest(): Buffer {
  const field = (number: number, bytes: Buffer) =>
    Buffer.concat([Buffer.from([(number << 3) | 2, bytes.length]), bytes])
  const span = Buffer.concat([
    field(1, Buffer.alloc(16, 0xab)),
    field(2, Buffer.alloc(8, 0xcd)),
    field(5, Buffer.from('hand.made')),
  ])
  return field(1, field(2, field(2, span)))
}

const raw = (bytes: Buffer) => bytes
const TraceClient = makeGenericClientConstructor(
  {
    Export: {
      path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
      requestStream: false,
      responseStream: false,
      requestSerialize: raw,
      requestDeserialize: raw,
      responseSerialize: raw,
      responseDeserialize: raw,
    },
  },
  'TraceService',
)

function grpcExport(url: string, body: Buffer): Promise<Buffer> {
  const client = new TraceClient(new URL(url).host, credentials.createInsecure())
  // A generic client's methods are typed as an index signature: this one exists, by the definition above.
  const exportCall = client.Export!.bind(client)
  return new Promise<Buffer>((resolve, reject) =>
    exportCall(body, (error: ServiceError | null, response: Buffer) =>
      error ? reject(error) : resolve(response),
    ),
  ).finally(() => client.close())
}

describe('startOtlpCollector', () => {
  it('answers http/protobuf with an empty ExportTraceServiceResponse in protobuf, which the exporter’s own deserializer reads', async () => {
    const collector = await startOtlpCollector()
    try {
      const res = await fetch(`${collector.url}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-protobuf' },
        body: oneSpanRequest(),
      })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/x-protobuf')
      const body = new Uint8Array(await res.arrayBuffer())
      expect(body).toHaveLength(0)
      expect(ProtobufTraceSerializer.deserializeResponse(body)).toEqual({})
      expect(collector.spans()).toMatchObject([
        { name: 'hand.made', traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), serviceName: '' },
      ])
      expect(collector.exports()).toEqual({ 'http/protobuf': 1, 'http/json': 0, grpc: 0 })
    } finally {
      await collector.close()
    }
  })

  it('refuses bytes that are not protobuf with 400, another content type with 415, and keeps nothing', async () => {
    const collector = await startOtlpCollector()
    try {
      const post = (type: string, body: Buffer) =>
        fetch(`${collector.url}/v1/traces`, { method: 'POST', headers: { 'content-type': type }, body })
      expect((await post('application/x-protobuf', Buffer.from([0x0a, 0x20, 0x12]))).status).toBe(400)
      expect((await post('text/plain', oneSpanRequest())).status).toBe(415)
      expect(collector.count()).toBe(0)
    } finally {
      await collector.close()
    }
  })

  it('with protocol grpc serves TraceService/Export: a request’s spans are kept, bytes that are not protobuf are INVALID_ARGUMENT', async () => {
    const collector = await startOtlpCollector({ protocol: 'grpc' })
    try {
      expect(await grpcExport(collector.url, oneSpanRequest())).toHaveLength(0)
      await expect(grpcExport(collector.url, Buffer.from([0x0a, 0x20, 0x12]))).rejects.toMatchObject({
        code: status.INVALID_ARGUMENT,
      })
      expect(collector.spans().map((span) => span.name)).toEqual(['hand.made'])
      expect(collector.exports()).toEqual({ 'http/protobuf': 0, 'http/json': 0, grpc: 1 })
    } finally {
      await collector.close()
    }
  })
})
