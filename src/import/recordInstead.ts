/**
 * The ways to a recording loopcost reads, as the refusals of a known format it does not read say them
 * (agentsSdkTrace.ts, langSmithRuns.ts): each names its own format, then these.
 */

/** The model calls recorded as they were sent: a cassette, or provider exchanges JSONL. */
export const RECORD_THE_CALLS =
  'run the agent under vcrpy or pytest-recording and give loopcost the cassette, or write each request and response as a line {"request": …, "response": …} (provider exchanges JSONL)';

/** The OpenTelemetry spans loopcost reads, by the attributes it needs (otel/attributes.ts). */
export const OTLP_GENAI_SPANS = 'OTLP GenAI spans that carry gen_ai.request.model and gen_ai.usage.input_tokens / output_tokens';
