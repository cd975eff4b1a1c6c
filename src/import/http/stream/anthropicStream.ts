/**
 * Anthropic Messages streams: `message_start` (the message with its input-side usage), then per content
 * block `content_block_start` / `content_block_delta` (`text_delta`, `thinking_delta`, `input_json_delta`
 * fragments of a tool call's input) / `content_block_stop`, then `message_delta` (stop reason and the
 * cumulative usage, whose fields replace those of `message_start`) and `message_stop`. Reassembled into
 * one `message`. Also read for Bedrock invoke-with-response-stream and Vertex streamRawPredict, whose
 * chunks are these events; Bedrock's `amazon-bedrock-invocationMetrics` give latency and first-byte time.
 */
import { isJsonObject } from '../../common/jsonValue.js';
import { parseToolArguments } from '../../common/toolArguments.js';
import type { Reader } from '../bodyReader.js';
import { cutOff, finishedWithoutUsage, streamError, type Assembled } from './assembled.js';
import type { StreamEvents } from './events.js';

interface Block {
  block: Record<string, unknown>;
  text: string[];
  json: string[];
}

function finishBlock({ block, text, json }: Block): Record<string, unknown> {
  const out = { ...block };
  if (text.length > 0) {
    const key = block.type === 'thinking' ? 'thinking' : 'text';
    out[key] = `${typeof block[key] === 'string' ? (block[key] as string) : ''}${text.join('')}`;
  }
  if (json.length > 0) out.input = parseToolArguments(json.join(''));
  return out;
}

export function assembleAnthropicStream(stream: StreamEvents, r: Reader): Assembled {
  let message: Record<string, unknown> | undefined;
  let usage: Record<string, unknown> = {};
  let stopped = false;
  let metrics: Record<string, unknown> | undefined;
  const blocks = new Map<number, Block>();
  for (const { name, data } of stream.events) {
    if (!isJsonObject(data)) continue;
    const type = typeof data.type === 'string' ? data.type : name;
    if (type === 'error') return streamError(data.error ?? data);
    if (isJsonObject(data['amazon-bedrock-invocationMetrics'])) metrics = data['amazon-bedrock-invocationMetrics'];
    const index = typeof data.index === 'number' ? data.index : -1;
    if (type === 'message_start' && isJsonObject(data.message)) {
      message = { ...data.message };
      if (isJsonObject(data.message.usage)) usage = { ...data.message.usage };
    } else if (type === 'content_block_start' && isJsonObject(data.content_block)) {
      const block = { ...data.content_block };
      // A tool_use block starts with `input: {}` and receives its input as JSON fragments.
      if (block.type === 'tool_use' || block.type === 'server_tool_use') delete block.input;
      blocks.set(index, { block, text: [], json: [] });
    } else if (type === 'content_block_delta' && isJsonObject(data.delta)) {
      const target = blocks.get(index) ?? { block: { type: 'text' }, text: [], json: [] };
      blocks.set(index, target);
      const delta = data.delta;
      if (typeof delta.text === 'string') target.text.push(delta.text);
      if (typeof delta.thinking === 'string') target.text.push(delta.thinking);
      if (typeof delta.partial_json === 'string') target.json.push(delta.partial_json);
    } else if (type === 'message_delta') {
      if (isJsonObject(data.usage)) usage = { ...usage, ...data.usage };
      if (isJsonObject(data.delta) && typeof data.delta.stop_reason === 'string' && message !== undefined) message.stop_reason = data.delta.stop_reason;
      stopped = true;
    } else if (type === 'message_stop') {
      stopped = true;
    }
  }
  if (message === undefined || !stopped) return cutOff(stream.events.length, message === undefined ? 'message_start' : 'message_delta');
  if (Object.keys(usage).length === 0) finishedWithoutUsage(r, 'usage', 'message_start and message_delta must carry usage');
  const content = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, b]) => finishBlock(b));
  const latencyMs = typeof metrics?.invocationLatency === 'number' ? metrics.invocationLatency : undefined;
  const firstTokenMs = typeof metrics?.firstByteLatency === 'number' ? metrics.firstByteLatency : undefined;
  return {
    body: { ...message, type: 'message', content, usage },
    ...(latencyMs !== undefined ? { latencyMs } : {}),
    ...(firstTokenMs !== undefined ? { firstTokenMs } : {}),
    notes: [],
  };
}
