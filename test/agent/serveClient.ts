/**
 * An `openai` SDK client for `loopcost serve` whose fetch keeps serve's `loopcost` extension of the last
 * answer (what Chat Completions cannot carry: a response's marks, its tool results' sizes, latencies),
 * and the last request body it sent.
 * With `session`/`traceIndex` it names its session and trace by header; without, serve matches each
 * request to its conversation (src/serve/registry.ts).
 */
import OpenAI from 'openai';
import type { RunningServer } from '../../src/serve/index.js';
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
