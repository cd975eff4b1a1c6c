/**
 * The events of a streamed response body, whatever its framing:
 *   - Server-Sent Events text (`event: …` / `data: {…}` lines, blank-line separated; `:` comment lines
 *     such as OpenRouter's `: OPENROUTER PROCESSING`; `data: [DONE]`), per the WHATWG SSE parsing rules;
 *   - AWS event-stream bytes (Bedrock converse-stream / invoke-with-response-stream), see eventStream.ts;
 *   - a JSON array of chunks (Gemini `streamGenerateContent` without `alt=sse`, or a logger that kept the
 *     parsed chunks).
 * Each event's data is parsed as JSON; a data line that is not JSON is a UserError naming its line.
 */
import type { Reader } from '../bodyReader.js';
import { jsonSyntaxPlace, syntaxHint, type SyntaxHints } from '../../../io/jsonSyntax.js';
import { embeddedSyntaxMessage, nonNumberHint } from '../../common/jsonSyntaxError.js';
import { eventStreamMessages } from './eventStream.js';
import { failOnRepeatedKey } from '../repeatedKey.js';

export interface StreamEvent {
  /** The event name: the SSE `event:` field, the event-stream `:event-type` header, or the data's `type`. */
  name?: string;
  data: unknown;
  /** 1-based line of the event's data in an SSE body (for messages). */
  line?: number;
}

export interface StreamEvents {
  events: StreamEvent[];
  /** The SSE body ended with `data: [DONE]`. */
  done: boolean;
  framing: 'sse' | 'event-stream' | 'json-array';
}

/** True when a text body is Server-Sent Events (its first non-blank line is an SSE field or comment). */
export function looksLikeSse(text: string): boolean {
  const first = /^\s*([^\r\n]*)/.exec(text)?.[1] ?? '';
  return /^(data|event|id|retry):/.test(first) || /^:/.test(first);
}

/** True when a response value is a streamed body these readers take apart. */
export function isStreamBody(value: unknown): boolean {
  return value instanceof Uint8Array || Array.isArray(value) || (typeof value === 'string' && looksLikeSse(value));
}

export function streamEvents(body: unknown, r: Reader): StreamEvents {
  if (body instanceof Uint8Array) {
    return { events: eventStreamMessages(body, r), done: false, framing: 'event-stream' };
  }
  if (Array.isArray(body)) {
    return { events: body.map((data) => ({ ...nameOf(data), data })), done: false, framing: 'json-array' };
  }
  return sseEvents(typeof body === 'string' ? body : '', r);
}

function nameOf(data: unknown): { name?: string } {
  const type = typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>).type : undefined;
  return typeof type === 'string' ? { name: type } : {};
}

/** A `data:` line of an SSE body: its 1-based line in the body, and the index its value starts at. */
interface DataLineAt {
  line: number;
  start: number;
}

const EVENT_HINTS: SyntaxHints = {
  nonNumber: nonNumberHint('record the stream again'),
  endsEarly: 'the event looks cut short: record the stream again, whole',
  other: 'each SSE `data:` field of a streamed response must be one JSON value',
};

/**
 * An event whose data (its `data:` lines joined) JSON.parse refused, named at the body's line and column
 * of the fault (src/import/common/jsonSyntaxError.ts), the field open there and why.
 */
function failEventSyntax(joined: string, error: unknown, dataAt: DataLineAt[], r: Reader): never {
  const place = jsonSyntaxPlace(joined, error, { noun: 'event' });
  const at = place.line === undefined ? undefined : dataAt[place.line - 1];
  // The column is counted in the body's line the faulty data line sits on (past its `data: `); the event's
  // line and column are set together, so a place with a column has its line in `dataAt`.
  const message = `stream event at line ${(at ?? dataAt[0]!).line} of the body ${embeddedSyntaxMessage(joined, place, 'event', { columnOffset: at?.start ?? 0 })}`;
  return r.fail('', 'invalid_json', message, syntaxHint(place, EVENT_HINTS));
}

/** SSE text → events (WHATWG rules: fields until a blank line; `data` lines joined with "\n"). */
export function sseEvents(text: string, r: Reader): StreamEvents {
  const events: StreamEvent[] = [];
  let done = false;
  let name: string | undefined;
  let data: string[] = [];
  /** Where each line of `data` sits in the body: its 1-based line, and the index its value starts at. */
  let dataAt: DataLineAt[] = [];
  const dispatch = (): void => {
    if (data.length > 0) {
      const joined = data.join('\n');
      if (joined.trim() === '[DONE]') {
        done = true;
      } else {
        let parsed: unknown;
        try {
          parsed = JSON.parse(joined);
        } catch (err) {
          failEventSyntax(joined, err, dataAt, r);
        }
        failOnRepeatedKey(r, joined, parsed, `stream event at line ${dataAt[0]!.line} of the body`);
        const own = nameOf(parsed).name;
        events.push({ ...(own !== undefined ? { name: own } : name !== undefined ? { name } : {}), data: parsed, line: dataAt[0]!.line });
      }
    }
    name = undefined;
    data = [];
    dataAt = [];
  };
  const lines = text.split(/\r\n|\n|\r/);
  lines.forEach((line, i) => {
    if (line === '') return dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'data') {
      dataAt.push({ line: i + 1, start: line.length - value.length });
      data.push(value);
    }
  });
  dispatch();
  return { events, done, framing: 'sse' };
}
