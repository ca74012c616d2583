/** One span as the collector received it, flattened from OTLP/JSON or OTLP protobuf. */
export interface CollectedSpan {
  /** 32 lowercase hex digits. */
  traceId: string
  spanId: string
  /** Absent on a root span. */
  parentSpanId?: string
  name: string
  /** The resource's `service.name`. */
  serviceName: string
  attributes: Record<string, unknown>
  events: { name: string; attributes: Record<string, unknown> }[]
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  statusCode: number
}

interface KeyValue {
  key: string
  value?: Record<string, unknown>
}

interface List<T> {
  values?: T[]
}

interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  attributes?: KeyValue[]
  events?: { name: string; attributes?: KeyValue[] }[]
  status?: { code?: number }
}

/** The body of an OTLP/JSON `ExportTraceServiceRequest` (the parts a test reads). */
export interface ExportTraceRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] }
    scopeSpans?: { spans?: OtlpSpan[] }[]
  }[]
}

// OTLP/JSON AnyValue: one of stringValue, intValue (a string for 64-bit), boolValue, doubleValue, arrayValue,
// kvlistValue, bytesValue (base64). Arrays and lists are unwrapped, as the protobuf decoder does.
function valueOf(value: Record<string, unknown> = {}): unknown {
  if ('intValue' in value) return Number(value.intValue)
  if ('arrayValue' in value)
    return ((value.arrayValue as List<Record<string, unknown>>).values ?? []).map(valueOf)
  if ('kvlistValue' in value) return attributesOf((value.kvlistValue as List<KeyValue>).values)
  const [first] = Object.values(value)
  return first
}

function attributesOf(list: KeyValue[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]))
}

// OTLP/JSON writes ids as hex; an empty parent means a root span.
const hex = (id: string | undefined) => (id ? id.toLowerCase() : undefined)

/** Flattens one OTLP/JSON request into spans. */
export function collectedSpansOf(request: ExportTraceRequest): CollectedSpan[] {
  return (request.resourceSpans ?? []).flatMap(({ resource, scopeSpans = [] }) => {
    const serviceName = String(attributesOf(resource?.attributes)['service.name'] ?? '')
    return scopeSpans.flatMap(({ spans = [] }) =>
      spans.map((span) => ({
        traceId: hex(span.traceId) ?? '',
        spanId: hex(span.spanId) ?? '',
        parentSpanId: hex(span.parentSpanId),
        name: span.name,
        serviceName,
        attributes: attributesOf(span.attributes),
        events: (span.events ?? []).map((event) => ({
          name: event.name,
          attributes: attributesOf(event.attributes),
        })),
        statusCode: span.status?.code ?? 0,
      })),
    )
  })
}
