/**
 * One streamed response body → the body the call would have returned unstreamed (see assembled.ts for
 * how a stream's ending is judged), by the API the exchange speaks.
 */
import { embeddedSyntax } from '../../common/jsonSyntaxError.js';
import { isJsonObject } from '../../common/jsonValue.js';
import { failOnRepeatedKey } from '../repeatedKey.js';
import type { Reader } from '../bodyReader.js';
import type { Shape } from '../parsedBodies.js';
import { assembleAnthropicStream } from './anthropicStream.js';
import type { Assembled } from './assembled.js';
import { assembleBedrockStream } from './bedrockStream.js';
import { assembleChatStream } from './chatStream.js';
import { streamEvents, type StreamEvent, type StreamEvents } from './events.js';
import { assembleGeminiStream } from './geminiStream.js';
import { assembleResponsesStream } from './responsesStream.js';

export interface AssembledStream extends Assembled {
  framing: StreamEvents['framing'];
  events: number;
}

/** Bedrock invoke-with-response-stream: each `chunk` event's `bytes` is one base64 event of the model's own stream. */
function unwrapInvokeChunks(events: StreamEvent[], r: Reader): StreamEvent[] {
  return events.map((e, i) => {
    if (e.name !== 'chunk' || !isJsonObject(e.data) || typeof e.data.bytes !== 'string') return e;
    const text = Buffer.from(e.data.bytes, 'base64').toString('utf8');
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      return r.fail('', 'invalid_json', `event-stream chunk ${i} does not hold a base64 JSON event: its decoded text ${embeddedSyntax(text, err, 'text').message}`);
    }
    failOnRepeatedKey(r, text, data, `event-stream chunk ${i}'s base64 event`);
    const type = isJsonObject(data) && typeof data.type === 'string' ? data.type : undefined;
    return { ...(type !== undefined ? { name: type } : {}), data };
  });
}

export function assembleStream(shape: Shape, body: unknown, r: Reader): AssembledStream {
  const stream = streamEvents(body, r);
  const assembled = ((): Assembled => {
    switch (shape) {
      case 'openai-chat':
        return assembleChatStream(stream, r);
      case 'openai-responses':
        return assembleResponsesStream(stream, r);
      case 'anthropic':
        return assembleAnthropicStream(stream.framing === 'event-stream' ? { ...stream, events: unwrapInvokeChunks(stream.events, r) } : stream, r);
      case 'gemini':
        return assembleGeminiStream(stream, r);
      case 'bedrock':
        return assembleBedrockStream(stream, r);
      case 'cohere':
        return r.fail('', 'unsupported_streaming', 'streamed Cohere v2 chat responses are not read', 'record the Cohere calls with stream=false');
    }
  })();
  return { ...assembled, framing: stream.framing, events: stream.events.length };
}
