import type { TraceCarrier } from '@pf/service-kit'

/**
 * The job data's field that carries the W3C trace context of the enqueue (`traceparent`, `tracestate`) from the
 * receiver to the worker, beside the envelope's own fields; absent when tracing is off. Ours, so prefixed: the
 * platform's envelope may grow fields, never this one. The worker takes it out before a handler sees the event.
 */
export const JOB_TRACE_FIELD = 'pfTraceContext'

/** The event's stored JSON text with the trace context appended (the text as it came when `carrier` is empty). */
export function withTraceText(json: string, carrier: TraceCarrier): string {
  if (!carrier.traceparent) return json
  // The verified text is a JSON object with a webhookId (`receiveEvent`): its last `}` closes it, and it has a
  // field before ours. Appended last, as `JSON.stringify({...event, [JOB_TRACE_FIELD]: carrier})` writes it.
  const end = json.lastIndexOf('}')
  return `${json.slice(0, end)},${JSON.stringify(JOB_TRACE_FIELD)}:${JSON.stringify(carrier)}}`
}

/** The event object to store with the trace context (`Queue.add`'s data); the event itself when `carrier` is empty. */
export function withTraceData<T extends object>(event: T, carrier: TraceCarrier): T {
  return carrier.traceparent ? { ...event, [JOB_TRACE_FIELD]: carrier } : event
}

/** A job's data split into the event as the platform sent it and the trace context it carries (if any). */
export function splitTraceData(data: unknown): { event: unknown; carrier?: Record<string, unknown> } {
  if (typeof data !== 'object' || data === null || !(JOB_TRACE_FIELD in data)) return { event: data }
  const { [JOB_TRACE_FIELD]: carrier, ...event } = data as Record<string, unknown>
  return { event, carrier: typeof carrier === 'object' && carrier !== null ? (carrier as never) : undefined }
}
