/**
 * AWS event-stream framing (`application/vnd.amazon.eventstream`, Bedrock converse-stream and
 * invoke-with-response-stream). Each message is:
 *   total length (u32 BE) · headers length (u32 BE) · prelude CRC32 · headers · payload · message CRC32
 * and each header is: name length (u8) · name · value type (u8) · value. Both CRCs are checked, so a
 * truncated or altered recording is refused rather than misread. The payload of an `event` message is
 * JSON; `exception` / `error` messages become events named `exception` carrying the error.
 */
import { crc32 } from 'node:zlib';
import { embeddedSyntax } from '../../common/jsonSyntaxError.js';
import type { Reader } from '../bodyReader.js';
import type { StreamEvent } from './events.js';
import { failOnRepeatedKey } from '../repeatedKey.js';

type HeaderValue = string | number | boolean | Uint8Array;

/** Byte width of each fixed-size header value type (0 and 1 are booleans with no value). */
const FIXED_WIDTH: Record<number, number> = { 0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16 };

function readHeaders(bytes: Buffer, start: number, end: number, fail: (what: string) => never): Map<string, HeaderValue> {
  const headers = new Map<string, HeaderValue>();
  let at = start;
  while (at < end) {
    const nameLength = bytes.readUInt8(at);
    const name = bytes.toString('utf8', at + 1, at + 1 + nameLength);
    const type = bytes.readUInt8(at + 1 + nameLength);
    at += 2 + nameLength;
    if (type === 6 || type === 7) {
      const length = bytes.readUInt16BE(at);
      const raw = bytes.subarray(at + 2, at + 2 + length);
      headers.set(name, type === 7 ? raw.toString('utf8') : raw);
      at += 2 + length;
    } else if (FIXED_WIDTH[type] !== undefined) {
      headers.set(name, type === 0 ? true : type === 1 ? false : type === 2 ? bytes.readInt8(at) : type === 3 ? bytes.readInt16BE(at) : type === 4 ? bytes.readInt32BE(at) : 0);
      at += FIXED_WIDTH[type]!;
    } else {
      fail(`unknown header value type ${type}`);
    }
  }
  if (at !== end) fail('headers overrun their length');
  return headers;
}

export function eventStreamMessages(body: Uint8Array, r: Reader): StreamEvent[] {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const events: StreamEvent[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const n = events.length;
    const fail = (what: string): never =>
      r.fail('', 'invalid_event_stream', `event-stream message ${n} at byte ${offset} is malformed: ${what}`, 'the body must be the AWS event-stream bytes as received (record them as binary, uncut)');
    if (bytes.length - offset < 16) fail('the body ends inside a message prelude');
    const total = bytes.readUInt32BE(offset);
    const headersLength = bytes.readUInt32BE(offset + 4);
    if (total < 16 + headersLength || offset + total > bytes.length) fail(`length ${total} runs past the body (${bytes.length - offset} bytes left)`);
    if (crc32(bytes.subarray(offset, offset + 8)) !== bytes.readUInt32BE(offset + 8)) fail('prelude checksum mismatch');
    if (crc32(bytes.subarray(offset, offset + total - 4)) !== bytes.readUInt32BE(offset + total - 4)) fail('message checksum mismatch');
    const headers = readHeaders(bytes, offset + 12, offset + 12 + headersLength, fail);
    const payload = bytes.toString('utf8', offset + 12 + headersLength, offset + total - 4);
    let data: unknown = payload;
    try {
      data = payload.trim() === '' ? {} : (JSON.parse(payload) as unknown);
    } catch (err) {
      if (headers.get(':message-type') === 'event') fail(`payload ${embeddedSyntax(payload, err, 'payload').message}`);
    }
    if (data !== payload) failOnRepeatedKey(r, payload, data, `event-stream message ${n}`);
    const messageType = headers.get(':message-type');
    if (messageType === 'exception' || messageType === 'error') {
      const kind = headers.get(':exception-type') ?? headers.get(':error-code') ?? 'error';
      const message = headers.get(':error-message') ?? (typeof data === 'object' && data !== null ? (data as Record<string, unknown>).message : data);
      events.push({ name: 'exception', data: { error: { type: String(kind), message: String(message ?? kind) } } });
    } else {
      const eventType = headers.get(':event-type');
      events.push({ ...(typeof eventType === 'string' ? { name: eventType } : {}), data });
    }
    offset += total;
  }
  return events;
}

/** True when bytes open with a valid event-stream prelude (its checksum matches). */
export function looksLikeEventStream(bytes: Uint8Array): boolean {
  if (bytes.length < 16) return false;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buf.readUInt32BE(0) <= buf.length && crc32(buf.subarray(0, 8)) === buf.readUInt32BE(8);
}
