/** The flat span every other step reads: what readSpans.ts makes of one OTLP span. */

/** A decoded OTLP attribute value (anyValue.ts). */
export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };

export interface OtelSpan {
  traceId: string;
  spanId: string;
  name: string;
  /** Unix nanoseconds. */
  start: bigint;
  end: bigint;
  attrs: Map<string, AttrValue>;
  /** Status code ERROR. */
  statusError: boolean;
  statusMessage?: string;
  /** Error location: the file, the span's line when found, and its path in the document. */
  file: string;
  line?: number;
  path: string;
}

/** end − start in milliseconds (0 when the span has no positive duration). */
export function latencyMs(span: OtelSpan): number {
  return span.end > span.start ? Number(span.end - span.start) / 1e6 : 0;
}
