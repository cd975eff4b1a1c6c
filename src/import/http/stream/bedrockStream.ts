/**
 * Bedrock converse-stream (AWS event-stream): `messageStart`, then per content block `contentBlockStart`
 * (a tool call's id and name) / `contentBlockDelta` (`text`, `toolUse.input` JSON fragments, `reasoningContent`
 * parts, kept as a `reasoningContent` block) / `contentBlockStop`, then `messageStop` (stop reason) and
 * `metadata` (usage and `metrics.latencyMs`). Reassembled into one Converse response. An exception message
 * makes a failed call.
 */
import { isJsonObject } from '../../common/jsonValue.js';
import { parseToolArguments } from '../../common/toolArguments.js';
import type { Reader } from '../bodyReader.js';
import { cutOff, finishedWithoutUsage, streamError, type Assembled } from './assembled.js';
import type { StreamEvents } from './events.js';

interface Block {
  text: string[];
  toolUse?: { toolUseId?: unknown; name?: unknown };
  input: string[];
  /** A reasoning block's parts: its text pieces, its signature, or its redacted (encrypted) content. */
  reasoning?: { text: string[]; signature?: unknown; redactedContent?: unknown };
}

/** A `reasoningContent` delta's part (`text`, `signature` or `redactedContent`) added to its block. */
function addReasoningDelta(block: Block, delta: Record<string, unknown>): void {
  const reasoning = (block.reasoning ??= { text: [] });
  if (typeof delta.text === 'string') reasoning.text.push(delta.text);
  if (delta.signature !== undefined) reasoning.signature = delta.signature;
  if (delta.redactedContent !== undefined) reasoning.redactedContent = delta.redactedContent;
}

/** The Converse content block a stream's block makes: a tool call, a `reasoningContent` block, or text. */
function assembledBlock(b: Block): Record<string, unknown> {
  if (b.toolUse !== undefined) return { toolUse: { ...b.toolUse, input: b.input.length > 0 ? parseToolArguments(b.input.join('')) : {} } };
  if (b.reasoning === undefined) return { text: b.text.join('') };
  const { text, signature, redactedContent } = b.reasoning;
  if (redactedContent !== undefined && text.length === 0) return { reasoningContent: { redactedContent } };
  return { reasoningContent: { reasoningText: { text: text.join(''), ...(signature !== undefined ? { signature } : {}) } } };
}

export function assembleBedrockStream(stream: StreamEvents, r: Reader): Assembled {
  const blocks = new Map<number, Block>();
  let stopReason: string | undefined;
  let metadata: Record<string, unknown> | undefined;
  const blockAt = (index: unknown): Block => {
    const key = typeof index === 'number' ? index : 0;
    const block = blocks.get(key) ?? { text: [], input: [] };
    blocks.set(key, block);
    return block;
  };
  for (const { name, data } of stream.events) {
    if (!isJsonObject(data)) continue;
    if (name === 'exception') return streamError(data.error);
    if (name === 'contentBlockStart') {
      const start = isJsonObject(data.start) ? data.start : {};
      if (isJsonObject(start.toolUse)) blockAt(data.contentBlockIndex).toolUse = { toolUseId: start.toolUse.toolUseId, name: start.toolUse.name };
    } else if (name === 'contentBlockDelta') {
      const delta = isJsonObject(data.delta) ? data.delta : {};
      const block = blockAt(data.contentBlockIndex);
      if (typeof delta.text === 'string') block.text.push(delta.text);
      if (isJsonObject(delta.toolUse) && typeof delta.toolUse.input === 'string') block.input.push(delta.toolUse.input);
      if (isJsonObject(delta.reasoningContent)) addReasoningDelta(block, delta.reasoningContent);
    } else if (name === 'messageStop') {
      stopReason = typeof data.stopReason === 'string' ? data.stopReason : 'unknown';
    } else if (name === 'metadata') {
      metadata = data;
    }
  }
  if (stopReason === undefined && metadata === undefined) return cutOff(stream.events.length, 'messageStop');
  if (!isJsonObject(metadata?.usage)) finishedWithoutUsage(r, 'usage', 'a converse-stream ends with a metadata event carrying usage; was the body cut?');
  const content = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, b]) => assembledBlock(b));
  return {
    body: { output: { message: { role: 'assistant', content } }, stopReason: stopReason ?? null, usage: metadata!.usage, ...(metadata!.metrics !== undefined ? { metrics: metadata!.metrics } : {}) },
    notes: [],
  };
}
