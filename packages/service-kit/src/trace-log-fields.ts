import { isSpanContextValid, trace } from '@opentelemetry/api'

/** pino's mixin: `trace_id` and `span_id` on every line written inside an active span, nothing otherwise. */
export function traceLogFields(): Record<string, string> {
  const span = trace.getActiveSpan()
  if (!span) return {}
  const { traceId, spanId } = span.spanContext()
  return isSpanContextValid(span.spanContext()) ? { trace_id: traceId, span_id: spanId } : {}
}
