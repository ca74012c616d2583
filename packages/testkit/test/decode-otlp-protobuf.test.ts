import { ROOT_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api'
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer'
import { resourceFromAttributes } from '@opentelemetry/resources'
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace'
import { collectedSpansOf } from '../src/otlp/collected-span'
import { decodeOtlpProtobuf } from '../src/otlp/decode-otlp-protobuf'
import { readProtobufFields } from '../src/otlp/read-protobuf-fields'

/** Every attribute type OTLP carries, set on a span and expected back from the decoder. */
const ATTRIBUTES = {
  text: 'é ✓',
  yes: true,
  no: false,
  count: 42,
  negative: -7,
  zero: 0,
  ratio: 0.25,
  names: ['a', 'b'],
  flags: [true, false],
  numbers: [1, 2.5],
}

// Spans made by the real SDK, so both encodings come from the vendor's own serializers.
async function sdkSpans(): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter()
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'decoder-test' }),
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  })
  const tracer = provider.getTracer('decoder-test')
  const parent = tracer.startSpan('parent')
  // The parent passed explicitly: no context manager is registered in this process.
  const child = tracer.startSpan(
    'child',
    {
      attributes: ATTRIBUTES,
    },
    trace.setSpan(ROOT_CONTEXT, parent),
  )
  child.addEvent('duplicate', { reason: 'seen', attempt: 2 })
  child.addEvent('bare')
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' })
  child.end()
  parent.setStatus({ code: SpanStatusCode.OK })
  parent.end()
  await provider.forceFlush()
  const spans = exporter.getFinishedSpans()
  await provider.shutdown()
  return spans
}

describe('decodeOtlpProtobuf', () => {
  it('reads the vendor’s ProtobufTraceSerializer bytes into the same spans collectedSpansOf reads from its JSON', async () => {
    const spans = await sdkSpans()
    const protobuf = ProtobufTraceSerializer.serializeRequest(spans)!
    const json = JSON.parse(Buffer.from(JsonTraceSerializer.serializeRequest(spans)!).toString('utf8'))
    const decoded = decodeOtlpProtobuf(protobuf)
    expect(decoded).toEqual(collectedSpansOf(json))
    expect(decoded).toHaveLength(2)
  })

  it('gives ids as lowercase hex, parent links, every attribute type, events and the status code', async () => {
    const spans = await sdkSpans()
    const [child, parent] = decodeOtlpProtobuf(ProtobufTraceSerializer.serializeRequest(spans)!)
    const sdkChild = spans.find((span) => span.name === 'child')!
    expect(parent).toMatchObject({ name: 'parent', serviceName: 'decoder-test', statusCode: 1, events: [] })
    expect(parent!.parentSpanId).toBeUndefined()
    expect(child).toEqual({
      traceId: sdkChild.spanContext().traceId,
      spanId: sdkChild.spanContext().spanId,
      parentSpanId: parent!.spanId,
      name: 'child',
      serviceName: 'decoder-test',
      attributes: ATTRIBUTES,
      events: [
        { name: 'duplicate', attributes: { reason: 'seen', attempt: 2 } },
        { name: 'bare', attributes: {} },
      ],
      statusCode: 2,
    })
    expect(child!.traceId).toMatch(/^[0-9a-f]{32}$/)
  })

  it('keeps a NaN double as NaN, where the vendor’s OTLP/JSON says null (JSON.stringify has no NaN)', async () => {
    const exporter = new InMemorySpanExporter()
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] })
    provider
      .getTracer('decoder-test')
      .startSpan('nan', { attributes: { ratio: NaN } })
      .end()
    const spans = exporter.getFinishedSpans()
    const json = JSON.parse(Buffer.from(JsonTraceSerializer.serializeRequest(spans)!).toString('utf8'))
    expect(decodeOtlpProtobuf(ProtobufTraceSerializer.serializeRequest(spans)!)[0]!.attributes).toEqual({
      ratio: NaN,
    })
    expect(collectedSpansOf(json)[0]!.attributes).toEqual({ ratio: null })
    await provider.shutdown()
  })

  it('reads an empty request (what an exporter sends with nothing buffered) as no spans', () => {
    expect(decodeOtlpProtobuf(new Uint8Array())).toEqual([])
  })

  it('throws a RangeError on truncated bytes, never returns half a span', () => {
    // resource_spans (field 1) announces 32 bytes; one follows.
    const cut = Buffer.from([0x0a, 0x20, 0x12])
    expect(() => decodeOtlpProtobuf(cut)).toThrow(RangeError)
    expect(() => readProtobufFields(Buffer.from([0x08, 0x96]))).toThrow(/varint truncated/)
    expect(() => readProtobufFields(Buffer.from([0x0b]))).toThrow(/unsupported wire type 3/)
  })
})

describe('readProtobufFields', () => {
  it('splits a message into varint, fixed and length-delimited fields (the wire format guide’s examples)', () => {
    // 150 as field 1; "testing" as field 2; 1.5 as double field 3; 7 as fixed32 field 4.
    const double = Buffer.alloc(8)
    double.writeDoubleLE(1.5)
    const fixed32 = Buffer.alloc(4)
    fixed32.writeUInt32LE(7)
    const message = Buffer.concat([
      Buffer.from([0x08, 0x96, 0x01, 0x12, 0x07]),
      Buffer.from('testing'),
      Buffer.from([0x19]),
      double,
      Buffer.from([0x25]),
      fixed32,
    ])
    expect(readProtobufFields(message)).toEqual([
      { field: 1, wireType: 0, value: 150n },
      { field: 2, wireType: 2, value: Buffer.from('testing') },
      { field: 3, wireType: 1, value: double },
      { field: 4, wireType: 5, value: fixed32 },
    ])
  })
})
