import type { CollectedSpan } from './collected-span'
import { readProtobufFields, type ProtobufField } from './read-protobuf-fields'

// Field numbers from github.com/open-telemetry/opentelemetry-proto (read at ac2c4b5, 2026-08-18):
// opentelemetry/proto/collector/trace/v1/trace_service.proto, opentelemetry/proto/trace/v1/trace.proto,
// opentelemetry/proto/resource/v1/resource.proto and opentelemetry/proto/common/v1/common.proto.
// Only the fields CollectedSpan exposes; the reader skips the others (times, kind, links, dropped counts).
const REQUEST = { resourceSpans: 1 } // ExportTraceServiceRequest
const RESOURCE_SPANS = { resource: 1, scopeSpans: 2 }
const RESOURCE = { attributes: 1 }
const SCOPE_SPANS = { spans: 2 }
const SPAN = { traceId: 1, spanId: 2, parentSpanId: 4, name: 5, attributes: 9, events: 11, status: 15 }
const EVENT = { name: 2, attributes: 3 }
const STATUS = { code: 3 }
const KEY_VALUE = { key: 1, value: 2 }
const ANY_VALUE = { string: 1, bool: 2, int: 3, double: 4, array: 5, kvlist: 6, bytes: 7 }
const LIST = { values: 1 } // ArrayValue and KeyValueList

// Length-delimited values (sub-messages, strings, bytes) of one field number, in order (repeated fields).
function all(fields: ProtobufField[], field: number): Buffer[] {
  return fields.flatMap((f) => (f.field === field && f.wireType === 2 ? [f.value] : []))
}

// proto3 keeps the last occurrence of a singular field; an absent one is its default.
function last(fields: ProtobufField[], field: number): Buffer | undefined {
  return all(fields, field).at(-1)
}

function anyValueOf(bytes: Buffer): unknown {
  let value: unknown
  for (const f of readProtobufFields(bytes)) {
    if (f.wireType === 0 && f.field === ANY_VALUE.bool) value = f.value !== 0n
    // int64 is two's complement in 10 varint bytes when negative.
    else if (f.wireType === 0 && f.field === ANY_VALUE.int) value = Number(BigInt.asIntN(64, f.value))
    else if (f.wireType === 1 && f.field === ANY_VALUE.double) value = f.value.readDoubleLE(0)
    else if (f.wireType !== 2) continue
    else if (f.field === ANY_VALUE.string) value = f.value.toString('utf8')
    else if (f.field === ANY_VALUE.array)
      value = all(readProtobufFields(f.value), LIST.values).map(anyValueOf)
    else if (f.field === ANY_VALUE.kvlist) value = attributesOf(all(readProtobufFields(f.value), LIST.values))
    // OTLP/JSON writes bytes as base64: the same here, so both encodings give one answer.
    else if (f.field === ANY_VALUE.bytes) value = f.value.toString('base64')
  }
  return value
}

function attributesOf(keyValues: Buffer[]): Record<string, unknown> {
  return Object.fromEntries(
    keyValues.map((bytes) => {
      const fields = readProtobufFields(bytes)
      const value = last(fields, KEY_VALUE.value)
      return [last(fields, KEY_VALUE.key)?.toString('utf8') ?? '', value ? anyValueOf(value) : undefined]
    }),
  )
}

function statusCodeOf(status: Buffer | undefined): number {
  const code = status ? readProtobufFields(status).findLast((f) => f.field === STATUS.code) : undefined
  return code?.wireType === 0 ? Number(code.value) : 0
}

function spanOf(bytes: Buffer, serviceName: string): CollectedSpan {
  const fields = readProtobufFields(bytes)
  const text = (field: number) => last(fields, field)?.toString('utf8') ?? ''
  const hex = (field: number) => last(fields, field)?.toString('hex') ?? ''
  return {
    traceId: hex(SPAN.traceId),
    spanId: hex(SPAN.spanId),
    // An empty parent id (absent or zero bytes) means a root span, as in OTLP/JSON.
    parentSpanId: hex(SPAN.parentSpanId) || undefined,
    name: text(SPAN.name),
    serviceName,
    attributes: attributesOf(all(fields, SPAN.attributes)),
    events: all(fields, SPAN.events).map((event) => {
      const eventFields = readProtobufFields(event)
      return {
        name: last(eventFields, EVENT.name)?.toString('utf8') ?? '',
        attributes: attributesOf(all(eventFields, EVENT.attributes)),
      }
    }),
    statusCode: statusCodeOf(last(fields, SPAN.status)),
  }
}

/**
 * Flattens one protobuf `ExportTraceServiceRequest` (the body of OTLP `http/protobuf` and of a gRPC `Export`
 * call) into spans, the same ones `collectedSpansOf` reads from its OTLP/JSON encoding. Throws a `RangeError`
 * on bytes that are not a protobuf message.
 *
 * @example
 * const spans = decodeOtlpProtobuf(body) // [{ name: 'provider.query', traceId: '4bf9…', … }]
 */
export function decodeOtlpProtobuf(request: Uint8Array): CollectedSpan[] {
  return all(readProtobufFields(request), REQUEST.resourceSpans).flatMap((resourceSpans) => {
    const fields = readProtobufFields(resourceSpans)
    const resource = last(fields, RESOURCE_SPANS.resource)
    const resourceAttributes = resource
      ? attributesOf(all(readProtobufFields(resource), RESOURCE.attributes))
      : {}
    const serviceName = String(resourceAttributes['service.name'] ?? '')
    return all(fields, RESOURCE_SPANS.scopeSpans).flatMap((scopeSpans) =>
      all(readProtobufFields(scopeSpans), SCOPE_SPANS.spans).map((span) => spanOf(span, serviceName)),
    )
  })
}
