/**
 * When a provider made a response, as its body says, for dating a run whose container gives no time (a
 * cassette whose recorder filtered out the `date` header, as pydantic-ai's do; a JSONL exchange log, whose
 * lines carry none): OpenAI Chat Completions and the APIs that copy it (`created`, unix seconds), OpenAI
 * Responses (`created_at`, unix seconds), Vertex AI Gemini (`createTime`, RFC 3339). A streamed body is read
 * as reassembled (stream/*.ts keep these fields). Anthropic, Bedrock and Cohere bodies carry no time. A time
 * of 0, or one outside the years 1970–9999, dates nothing.
 */
import { isJsonObject } from '../common/jsonValue.js';
import { isoInstant, readLogTime, YEAR_10000_UNIX_SECONDS } from '../common/timestamp.js';

/** The body's creation time as `header.recordedAt` writes it; undefined when it gives none. */
export function responseTime(body: unknown): string | undefined {
  if (!isJsonObject(body)) return undefined;
  const seconds = typeof body.created === 'number' ? body.created : typeof body.created_at === 'number' ? body.created_at : undefined;
  if (seconds !== undefined) return seconds > 0 && seconds < YEAR_10000_UNIX_SECONDS ? isoInstant(Math.floor(seconds * 1000)) : undefined;
  const ms = typeof body.createTime === 'string' ? readLogTime(body.createTime)?.ms : undefined;
  return ms !== undefined && ms > 0 && ms < YEAR_10000_UNIX_SECONDS * 1000 ? isoInstant(ms) : undefined;
}
