/** AWS event-stream bytes for hand-written Bedrock stream tests (the framing src/import/http/stream/eventStream.ts reads). */
import { crc32 } from 'node:zlib';
import { stringify } from 'yaml';

/** One AWS event-stream message (prelude, string headers, payload, both CRC32s). */
export function eventStreamMessage(headers: Record<string, string>, payload: string): Buffer {
  const head = Buffer.concat(
    Object.entries(headers).map(([name, value]) => {
      const n = Buffer.from(name);
      const v = Buffer.from(value);
      const len = Buffer.alloc(2);
      len.writeUInt16BE(v.length);
      return Buffer.concat([Buffer.from([n.length]), n, Buffer.from([7]), len, v]);
    }),
  );
  const body = Buffer.from(payload);
  const prelude = Buffer.alloc(8);
  prelude.writeUInt32BE(16 + head.length + body.length, 0);
  prelude.writeUInt32BE(head.length, 4);
  const preludeCrc = Buffer.alloc(4);
  preludeCrc.writeUInt32BE(crc32(prelude));
  const withoutCrc = Buffer.concat([prelude, preludeCrc, head, body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(withoutCrc));
  return Buffer.concat([withoutCrc, crc]);
}

/** A Bedrock converse-stream body: each `[event type, data]` as one event message. */
export function converseStreamBytes(events: [string, unknown][]): Uint8Array {
  return new Uint8Array(Buffer.concat(events.map(([type, data]) => eventStreamMessage({ ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' }, JSON.stringify(data)))));
}

/** A cassette of one Bedrock invoke-with-response-stream call whose body is event-stream `chunk` messages of `payloads`. */
export function bedrockCassette(payloads: string[]): string {
  const chunk = { ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' };
  const body = new Uint8Array(Buffer.concat(payloads.map((payload) => eventStreamMessage(chunk, payload))));
  const request = {
    method: 'POST',
    uri: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream',
    body: JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 100, messages: [{ role: 'user', content: 'List the files.' }] }),
  };
  const response = { status: { code: 200, message: 'OK' }, headers: { 'content-type': ['application/vnd.amazon.eventstream'] }, body };
  return stringify({ interactions: [{ request, response }], version: 1 }, { schema: 'yaml-1.1' });
}
