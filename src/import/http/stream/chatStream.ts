/**
 * Chat Completions streams (OpenAI and every compatible API: Groq, Mistral, DeepSeek, OpenRouter,
 * Cerebras, …): `chat.completion.chunk` objects whose `choices[].delta` carry text and tool-call
 * fragments (`tool_calls[].index` with the id and name first, then `function.arguments` pieces) and reasoning
 * pieces (`reasoning_content` or `reasoning`, kept as the message's `reasoning_content`; `reasoning_details`), then a
 * `finish_reason`; usage comes in the last chunk (`usage`, with `stream_options.include_usage`), or in
 * Groq's `x_groq.usage`. Reassembled into one `chat.completion`.
 */
import { isJsonObject } from '../../common/jsonValue.js';
import type { Reader } from '../bodyReader.js';
import { cutOff, finishedWithoutUsage, streamError, type Assembled } from './assembled.js';
import type { StreamEvents } from './events.js';

interface ToolCallParts {
  id?: string;
  name: string;
  args: string[];
}

interface ChoiceParts {
  text: string[];
  /** Reasoning text pieces (`reasoning_content`: DeepSeek, vLLM; `reasoning`: OpenRouter, Groq, Ollama) and OpenRouter's `reasoning_details` entries. */
  reasoning: string[];
  reasoningDetails: unknown[];
  toolCalls: Map<number, ToolCallParts>;
  finishReason?: string;
}

function addToolCallFragments(choice: ChoiceParts, fragments: unknown[]): void {
  fragments.forEach((raw, position) => {
    if (!isJsonObject(raw)) return;
    const index = typeof raw.index === 'number' ? raw.index : position;
    const call = choice.toolCalls.get(index) ?? { name: '', args: [] };
    choice.toolCalls.set(index, call);
    if (typeof raw.id === 'string' && raw.id !== '' && call.id === undefined) call.id = raw.id;
    const fn = isJsonObject(raw.function) ? raw.function : {};
    if (typeof fn.name === 'string' && fn.name !== '' && call.name === '') call.name = fn.name;
    if (typeof fn.arguments === 'string') call.args.push(fn.arguments);
    else if (fn.arguments !== undefined && fn.arguments !== null) call.args.push(JSON.stringify(fn.arguments));
  });
}

/** A chunk's `choices`: each delta's (or message's) text, tool-call fragments and finish reason added to its choice's parts. */
function addChoiceDeltas(choices: Map<number, ChoiceParts>, raws: unknown): void {
  for (const raw of Array.isArray(raws) ? raws : []) {
    if (!isJsonObject(raw)) continue;
    const index = typeof raw.index === 'number' ? raw.index : 0;
    const choice: ChoiceParts = choices.get(index) ?? { text: [], reasoning: [], reasoningDetails: [], toolCalls: new Map<number, ToolCallParts>() };
    choices.set(index, choice);
    const delta = isJsonObject(raw.delta) ? raw.delta : isJsonObject(raw.message) ? raw.message : {};
    if (typeof delta.content === 'string') choice.text.push(delta.content);
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === 'string') choice.reasoning.push(reasoning);
    if (Array.isArray(delta.reasoning_details)) choice.reasoningDetails.push(...(delta.reasoning_details as unknown[]));
    if (Array.isArray(delta.tool_calls)) addToolCallFragments(choice, delta.tool_calls);
    if (typeof raw.finish_reason === 'string') choice.finishReason = raw.finish_reason;
  }
}

/** A choice of the assembled `chat.completion`: its text, reasoning and tool calls (in index order) joined from their parts. */
function assembledChoice(index: number, c: ChoiceParts): Record<string, unknown> {
  return {
    index,
    message: {
      role: 'assistant',
      content: c.text.length > 0 ? c.text.join('') : null,
      ...(c.reasoning.length > 0 ? { reasoning_content: c.reasoning.join('') } : {}),
      ...(c.reasoningDetails.length > 0 ? { reasoning_details: c.reasoningDetails } : {}),
      ...(c.toolCalls.size > 0
        ? {
            tool_calls: [...c.toolCalls.entries()]
              .sort(([a], [b]) => a - b)
              .map(([, t]) => ({ ...(t.id !== undefined ? { id: t.id } : {}), type: 'function', function: { name: t.name, arguments: t.args.join('') } })),
          }
        : {}),
    },
    finish_reason: c.finishReason ?? null,
  };
}

export function assembleChatStream(stream: StreamEvents, r: Reader): Assembled {
  const choices = new Map<number, ChoiceParts>();
  const top: Record<string, unknown> = {};
  let usage: unknown;
  for (const { data } of stream.events) {
    if (!isJsonObject(data)) continue;
    if (data.error !== undefined && data.error !== null) return streamError(data.error);
    for (const key of ['id', 'created', 'model', 'provider', 'system_fingerprint']) if (data[key] !== undefined && data[key] !== null) top[key] ??= data[key];
    if (isJsonObject(data.usage)) usage = data.usage;
    if (isJsonObject(data.x_groq)) {
      top.x_groq = {};
      if (isJsonObject(data.x_groq.usage)) usage = data.x_groq.usage;
    }
    addChoiceDeltas(choices, data.choices);
  }
  const finished = stream.done || usage !== undefined || [...choices.values()].some((c) => c.finishReason !== undefined);
  if (!finished) return cutOff(stream.events.length, 'a finish_reason');
  if (usage === undefined) {
    finishedWithoutUsage(r, 'usage', 'record with stream_options: {"include_usage": true} (OpenAI-compatible APIs then send usage in the last chunk), or with stream=false');
  }
  const body = {
    ...top,
    object: 'chat.completion',
    choices: [...choices.entries()].sort(([a], [b]) => a - b).map(([index, c]) => assembledChoice(index, c)),
    usage,
  };
  return { body, notes: [] };
}
