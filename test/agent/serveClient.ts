/**
 * An `openai` SDK client for `loopcost serve` whose fetch keeps serve's `loopcost` extension of the last
 * answer (what Chat Completions cannot carry: a response's marks, its tool results' sizes, latencies),
 * and the last request body it sent.
 * With `session`/`traceIndex` it names its session and trace by header; without, serve matches each
 * request to its conversation (src/serve/registry.ts).
 */
import OpenAI from 'openai';
import type { AgentTool } from '../../src/agent/types.js';
import type { RunningServer } from '../../src/serve/index.js';
import { textOfTokens } from '../../src/serve/sizedText.js';
import type { CallRecord } from '../../src/trace/types.js';

export interface Extension {
  record: CallRecord;
  usage: { cacheWrite: number; cacheWrite1h: number; input: number; cached: number; output: number; reasoning: number };
  /** A string of digits, as every picodollar figure serve writes. */
  costPico: string;
}

export function serveClient(server: RunningServer, by: { session?: string; traceIndex?: number } = {}): { client: OpenAI; last: () => Extension; lastBody: () => unknown } {
  let last: Extension | undefined;
  // Parsed when asked for: a request's body is the whole conversation, sent again with every call.
  let lastBody: string | undefined;
  const keep: typeof fetch = async (input, init) => {
    lastBody = typeof init?.body === 'string' ? init.body : undefined;
    const response = await fetch(input, init);
    const body = (await response.clone().json().catch(() => null)) as { loopcost?: Extension } | null;
    last = body?.loopcost;
    return response;
  };
  const headers = {
    ...(by.session === undefined ? {} : { 'x-loopcost-session': by.session }),
    ...(by.traceIndex === undefined ? {} : { 'x-loopcost-trace': String(by.traceIndex) }),
  };
  const client = new OpenAI({ apiKey: 'loopcost', baseURL: `${server.url}/v1`, maxRetries: 0, fetch: keep, defaultHeaders: headers });
  return { client, last: () => last!, lastBody: () => (lastBody === undefined ? undefined : JSON.parse(lastBody)) };
}

/** Tokens a tool message's framing adds to its content (o200k_base): a result of N tokens is N − 4 of text. */
const TOOL_MESSAGE_FRAMING = 4;

/**
 * A tool answering what serve's synthetic agent says its call returned (`last().record.toolCalls`, matched by
 * the call id's index): text of the result's tokens, framing included, so the prompt grows as the scenario's.
 */
export function servedResultTool(last: () => Extension): (name: string) => AgentTool {
  return (name) => ({
    name,
    description: name,
    parameters: { type: 'object' },
    run(_args, { callId }) {
      const calls = last().record.toolCalls ?? [];
      const resultTokens = calls[calls.findIndex((_c, j) => callId.endsWith(`_${j + 1}`))]!.resultTokens;
      return { output: textOfTokens(resultTokens - TOOL_MESSAGE_FRAMING, '', 'o200k_base'), tokens: resultTokens };
    },
  });
}
