/**
 * Provider exchanges → native traces. Each model call (request + response) is one CallRecord; HTTP
 * failures are kept as failed calls with zero usage. Exchanges are split into runs (one Trace each) and
 * the tool results of call k are read from the history of the next request of the same run.
 *
 * Run splitting — a request continues the current run when all hold:
 *   1. same provider and API shape, and the same requested model (a handoff to another model or provider
 *      starts a new run);
 *   2. it extends the conversation: its history starts with the previous request's history (strictly
 *      longer after a successful response; possibly equal after a failed one, i.e. a retry), or — Responses
 *      API — it chains on a response of the run (`previous_response_id`) or carries a compaction item the
 *      run produced.
 */
import { UserError } from '../../errors.js';
import type { CallRecord, ToolCallRecord, Trace, TraceEnd } from '../../trace/types.js';
import { TRACE_SCHEMA } from '../../trace/types.js';
import { parseAnthropicRequest, parseAnthropicResponse } from './anthropic.js';
import { parseBedrockRequest, parseBedrockResponse } from './bedrock.js';
import {
  clip,
  countTokens,
  isRecord,
  Reader,
  type NormMessage,
  type NormToolResult,
  type ParsedRequest,
  type ParsedResponse,
  type ParsedToolCall,
  type Shape,
} from './common.js';
import { parseGeminiRequest, parseGeminiResponse } from './gemini.js';
import { parseChatRequest, parseChatResponse } from './openaiChat.js';
import { parseResponsesRequest, parseResponsesResponse } from './openaiResponses.js';

/** One model-call exchange as a container hands it over (already classified as a generation call). */
export interface GenerationExchange {
  /** Human label for notes, e.g. `interaction 3` or `line 5`. */
  label: string;
  file: string;
  line?: number;
  /** Field paths of the two bodies, e.g. `interactions[3].request.parsed_body`. */
  requestBase: string;
  responseBase: string;
  shape: Shape;
  provider: string;
  /** The provider was guessed from the body shapes (no URL): not used to split runs. */
  providerGuessed?: boolean;
  modelFromUri?: string;
  compact: boolean;
  status?: number;
  statusMessage?: string;
  request: unknown;
  response: unknown;
  latencyMs?: number;
}

/** A note about something skipped, placed after the generation exchange with index `after` (-1: before all). */
export interface PositionedNote {
  after: number;
  note: string;
}

interface Parsed {
  ex: GenerationExchange;
  req: ParsedRequest;
  res?: ParsedResponse;
  failed?: { status?: number; message: string };
  fingerprint: string[];
}

export function parseExchange(ex: GenerationExchange): Parsed {
  const rq = new Reader({ file: ex.file, ...(ex.line !== undefined ? { line: ex.line } : {}), base: ex.requestBase });
  const rs = new Reader({ file: ex.file, ...(ex.line !== undefined ? { line: ex.line } : {}), base: ex.responseBase });
  if (isRecord(ex.request) && ex.request.stream === true) {
    rq.fail(
      'stream',
      'unsupported_streaming',
      'streamed responses are not supported',
      'record the agent with stream=false (the response body must be one JSON object with usage)',
    );
  }
  const req = parseRequest(ex, rq);
  const failed = failureOf(ex);
  const res = failed ? undefined : parseResponse(ex, rs);
  return { ex, req, ...(res ? { res } : {}), ...(failed ? { failed } : {}), fingerprint: fingerprint(req) };
}

function parseRequest(ex: GenerationExchange, r: Reader): ParsedRequest {
  switch (ex.shape) {
    case 'openai-chat':
      return parseChatRequest(ex.request, r);
    case 'openai-responses':
      return parseResponsesRequest(ex.request, r);
    case 'anthropic': {
      const p = parseAnthropicRequest(ex.request, r);
      return p.model === undefined && ex.modelFromUri !== undefined ? { ...p, model: ex.modelFromUri } : p;
    }
    case 'gemini':
      return parseGeminiRequest(ex.request, r, ex.modelFromUri);
    case 'bedrock':
      return parseBedrockRequest(ex.request, r, ex.modelFromUri);
  }
}

function parseResponse(ex: GenerationExchange, r: Reader): ParsedResponse {
  switch (ex.shape) {
    case 'openai-chat':
      return parseChatResponse(ex.response, r);
    case 'openai-responses':
      return parseResponsesResponse(ex.response, r);
    case 'anthropic':
      return parseAnthropicResponse(ex.response, r);
    case 'gemini':
      return parseGeminiResponse(ex.response, r);
    case 'bedrock':
      return parseBedrockResponse(ex.response, r);
  }
}

/** HTTP status ≥ 400, or a 2xx body that is only an error object. */
function failureOf(ex: GenerationExchange): { status?: number; message: string } | undefined {
  const body = ex.response;
  const errorOnly =
    isRecord(body) && body.error !== undefined && body.error !== null && !('usage' in body) && !('usageMetadata' in body);
  if ((ex.status === undefined || ex.status < 400) && !errorOnly) return undefined;
  return { ...(ex.status !== undefined ? { status: ex.status } : {}), message: errorMessage(body, ex) };
}

function errorMessage(body: unknown, ex: GenerationExchange): string {
  const parts: string[] = [];
  if (isRecord(body)) {
    const err = body.error;
    if (typeof err === 'string') parts.push(err);
    if (isRecord(err)) {
      if (typeof err.message === 'string') parts.push(err.message);
      const raw = isRecord(err.metadata) ? err.metadata.raw : undefined;
      if (typeof raw === 'string') parts.push(raw);
    }
    for (const key of ['message', 'Message']) {
      if (parts.length === 0 && typeof body[key] === 'string') parts.push(body[key] as string);
    }
  } else if (typeof body === 'string' && body.trim() !== '') {
    parts.push(body.trim());
  }
  if (parts.length === 0) parts.push(ex.statusMessage ?? (ex.status !== undefined ? `HTTP ${ex.status}` : 'error response'));
  return clip(parts.join(': '), 300);
}

/** Comparable form of a request history (system text first). Assistant turns compare by tool-call names only. */
function fingerprint(req: ParsedRequest): string[] {
  const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();
  return [
    `system:${norm(req.system)}`,
    ...req.messages
      .filter((m) => m.role !== 'system')
      .map((m) => {
        if (m.role === 'assistant') return `assistant:${m.toolCalls.map((c) => c.name).join(',')}`;
        if (m.toolResults.length > 0) return `${m.role}:${m.toolResults.map((t) => `${t.id ?? ''}=${norm(t.text)}`).join('|')}`;
        if (m.itemIds && m.itemIds.length > 0) return `${m.role}:${m.itemIds.join(',')}`;
        return `${m.role}:${norm(m.text)}`;
      }),
  ];
}

function isPrefix(prefix: string[], of: string[]): boolean {
  return prefix.length <= of.length && prefix.every((p, i) => of[i] === p);
}

interface Run {
  items: Parsed[];
  responseIds: Set<string>;
  itemIds: Set<string>;
}

function continues(run: Run, cur: Parsed): boolean {
  const prev = run.items[run.items.length - 1];
  if (prev === undefined) return false;
  if (prev.ex.shape !== cur.ex.shape) return false;
  if (!prev.ex.providerGuessed && !cur.ex.providerGuessed && prev.ex.provider !== cur.ex.provider) return false;
  if (prev.req.model !== undefined && cur.req.model !== undefined && prev.req.model !== cur.req.model) return false;
  if (cur.req.previousResponseId !== undefined) return run.responseIds.has(cur.req.previousResponseId);
  if (cur.req.messages.some((m) => (m.itemIds ?? []).some((id) => run.itemIds.has(id)))) return true;
  if (!isPrefix(prev.fingerprint, cur.fingerprint)) return false;
  return prev.failed !== undefined || cur.fingerprint.length > prev.fingerprint.length;
}

export function splitRuns(parsed: Parsed[]): Parsed[][] {
  const runs: Run[] = [];
  for (const p of parsed) {
    let run = runs[runs.length - 1];
    if (run === undefined || !continues(run, p)) {
      run = { items: [], responseIds: new Set(), itemIds: new Set() };
      runs.push(run);
    }
    run.items.push(p);
    if (p.res?.id !== undefined) run.responseIds.add(p.res.id);
    for (const id of p.res?.producedItemIds ?? []) run.itemIds.add(id);
  }
  return runs.map((r) => r.items);
}

/**
 * A text answer with no tool call ends an agent run; when the conversation goes on after it (the user's
 * next turn), what follows is a new run. Compaction calls are not answers.
 */
function splitAtAnswers(run: Parsed[]): Parsed[][] {
  const out: Parsed[][] = [];
  let current: Parsed[] = [];
  run.forEach((p, k) => {
    current.push(p);
    const answered = !p.failed && p.res !== undefined && p.res.toolCalls.length === 0 && p.res.hasText && !p.ex.compact;
    if (answered && k < run.length - 1) {
      out.push(current);
      current = [];
    }
  });
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * Tool calls a failed call still produced: Groq rejects a malformed tool call with HTTP 400
 * `tool_use_failed` + `failed_generation`, and pydantic-ai puts that call into the history with a retry
 * prompt as its result. Taken from the next request's new assistant turn; [] for other failures.
 */
function failedGenerationCalls(run: Parsed[], k: number): ParsedToolCall[] {
  const cur = run[k];
  const next = run[k + 1];
  const body = cur?.ex.response;
  if (cur === undefined || next === undefined || !isRecord(body) || !isRecord(body.error)) return [];
  if (body.error.failed_generation === undefined) return [];
  return next.req.messages
    .slice(cur.req.messages.length)
    .filter((m) => m.role === 'assistant')
    .flatMap((m) => m.toolCalls)
    .filter((c) => c.name !== '')
    .map((c) => ({ ...(c.id !== undefined ? { id: c.id } : {}), name: c.name, arguments: c.arguments ?? {} }));
}

/** Tool-call records of call `k`, with results looked up in the next request of the run. */
function toolCallsOf(run: Parsed[], k: number, calls: ParsedToolCall[], model: string, notes: string[]): ToolCallRecord[] {
  const cur = run[k];
  if (cur === undefined || calls.length === 0) return [];
  const next = run[k + 1];
  if (next === undefined) return calls.map((c) => ({ name: c.name, arguments: c.arguments, resultTokens: 0 }));

  // Results by call id, from the first later request that carries them (normally the next one; after a
  // Responses compaction call, the one after it).
  const byId = new Map<string, NormToolResult>();
  for (const later of run.slice(k + 1)) {
    for (const t of later.req.messages.flatMap((m: NormMessage) => m.toolResults)) {
      if (t.id !== undefined && !byId.has(t.id)) byId.set(t.id, t);
    }
  }
  const tailStart = next.req.previousResponseId !== undefined ? 0 : cur.req.messages.length;
  const tail = next.req.messages.slice(tailStart).flatMap((m) => m.toolResults);
  const claimed = new Set(calls.map((c) => c.id).filter((id): id is string => id !== undefined && byId.has(id)));
  const used = new Set<NormToolResult>();

  return calls.map((c) => {
    let found: NormToolResult | undefined = c.id !== undefined ? byId.get(c.id) : undefined;
    if (found === undefined) {
      const free = tail.filter((t) => !used.has(t) && (t.id === undefined || !claimed.has(t.id)));
      found = free.find((t) => t.name === c.name) ?? free.find((t) => t.name === undefined);
    }
    if (found === undefined) {
      notes.push(`${cur.ex.label}: no result for tool call ${c.name}${c.id ? ` (${c.id})` : ''} in ${next.ex.label}; resultTokens 0`);
      return { name: c.name, arguments: c.arguments, resultTokens: 0 };
    }
    used.add(found);
    return {
      name: c.name,
      arguments: c.arguments,
      resultTokens: countTokens(found.text, model),
      ...(found.error !== undefined ? { error: found.error } : {}),
    };
  });
}

function firstUserText(req: ParsedRequest): string {
  const m = req.messages.find((msg) => msg.role === 'user' && msg.toolResults.length === 0);
  return m ? m.text : '';
}

export interface BuildOptions {
  file: string;
  format: string;
  /** Notes about the file as a whole (added to every trace). */
  fileNotes?: string[];
  /** Notes about skipped exchanges, placed into the run they fall in. */
  skipped?: PositionedNote[];
}

export function buildTraces(exchanges: GenerationExchange[], opts: BuildOptions): Trace[] {
  if (exchanges.length === 0) {
    throw new UserError({
      file: opts.file,
      code: 'no_model_calls',
      message: 'no model call found (no chat/completions, responses, messages, generateContent or converse exchange)',
      hint: 'record the agent loop itself; a file with only non-generation traffic is not a trace',
    });
  }
  const parsed = exchanges.map(parseExchange);
  const runs = splitRuns(parsed).flatMap(splitAtAnswers);
  let offset = 0;
  const traces = runs.map((run, i) => {
    const first = offset;
    offset += run.length;
    const skipped = (opts.skipped ?? [])
      .filter((s) => (i === 0 && s.after < first) || (s.after >= first && s.after < offset))
      .map((s) => s.note);
    const source = runs.length > 1 ? `${opts.file}#${i + 1}` : opts.file;
    return buildTrace(run, source, opts, skipped, runs.length > 1 ? `run ${i + 1} of ${runs.length} in the file` : undefined);
  });
  return traces;
}

function buildTrace(run: Parsed[], source: string, opts: BuildOptions, skipped: string[], splitNote?: string): Trace {
  const first = run[0]!;
  const model = first.req.model ?? first.res?.model;
  if (model === undefined) {
    throw new UserError({
      file: first.ex.file,
      ...(first.ex.line !== undefined ? { line: first.ex.line } : {}),
      field: `${first.ex.requestBase}.model`,
      code: 'missing_field',
      message: 'no model name in the request, the URI or the response',
      hint: 'add the model to the request body (or the url field)',
    });
  }
  const notes: string[] = [...(opts.fileNotes ?? [])];
  if (splitNote) notes.push(splitNote);
  // A guessed provider is best read off a successful response (an error body says little).
  const providerFrom = first.ex.providerGuessed ? (run.find((p) => p.res !== undefined) ?? first) : first;
  if (providerFrom.ex.providerGuessed) notes.push(`provider ${providerFrom.ex.provider} guessed from the body shape (no url)`);
  const calls: CallRecord[] = run.map((p, k) => {
    for (const n of [...p.req.notes, ...(p.res?.notes ?? [])]) notes.push(`${p.ex.label}: ${n}`);
    if (p.failed) {
      const rejected = toolCallsOf(run, k, failedGenerationCalls(run, k), model, notes);
      if (rejected.length > 0) notes.push(`${p.ex.label}: the provider rejected a malformed tool call (failed_generation); kept as the failed call's tool call`);
      return { type: 'call', inputTokens: 0, outputTokens: 0, ...(rejected.length > 0 ? { toolCalls: rejected } : {}), failed: p.failed };
    }
    const res = p.res!;
    const u = res.usage;
    const toolCalls = toolCallsOf(run, k, res.toolCalls, model, notes);
    const latencyMs = res.latencyMs ?? p.ex.latencyMs;
    const rec: CallRecord = {
      type: 'call',
      inputTokens: u.inputTokens,
      ...(u.cachedInputTokens !== undefined ? { cachedInputTokens: u.cachedInputTokens } : {}),
      ...(u.cacheWriteTokens !== undefined ? { cacheWriteTokens: u.cacheWriteTokens } : {}),
      ...(u.cacheWrite1hTokens !== undefined ? { cacheWrite1hTokens: u.cacheWrite1hTokens } : {}),
      outputTokens: u.outputTokens,
      ...(u.reasoningTokens !== undefined ? { reasoningTokens: u.reasoningTokens } : {}),
      ...(latencyMs !== undefined ? { latencyMs } : {}),
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
      ...(toolCalls.length === 0 && !res.hasText && !p.ex.compact ? { unparseable: true } : {}),
      ...(p.ex.compact ? { compaction: true } : {}),
      ...(u.recordedCostUsd !== undefined ? { recordedCostUsd: u.recordedCostUsd } : {}),
    };
    return rec;
  });
  notes.push(...skipped);

  const last = run[run.length - 1]!;
  const lastCall = calls[calls.length - 1]!;
  const lastOk = [...run].reverse().find((p) => p.res !== undefined);
  let end: TraceEnd;
  if (last.failed) {
    end = { type: 'end', outcome: 'error', status: last.failed.status !== undefined ? `HTTP ${last.failed.status}` : 'error response' };
  } else if (lastOk && lastOk.res!.toolCalls.length === 0 && !lastOk.ex.compact) {
    end = { type: 'end', outcome: 'completed' };
    lastCall.final = true;
  } else {
    end = { type: 'end', outcome: 'unknown' };
  }
  end.recordedCalls = calls.length;
  const ok = calls.filter((c) => !c.failed);
  if (ok.length > 0 && ok.every((c) => c.recordedCostUsd !== undefined)) {
    end.recordedCostUsd = Math.round(ok.reduce((s, c) => s + (c.recordedCostUsd ?? 0), 0) * 1e12) / 1e12;
  }

  return {
    source,
    header: {
      type: 'header',
      schema: TRACE_SCHEMA,
      model,
      provider: providerFrom.ex.provider,
      systemTokens: countTokens(first.req.system, model),
      // A run that opens with a compaction call states its goal in the request after it.
      goalTokens: countTokens(firstUserText((run.find((p) => !p.ex.compact) ?? first).req), model),
      origin: 'recorded',
      importedFrom: { format: opts.format, path: opts.file, ...(notes.length > 0 ? { notes: dedupe(notes) } : {}) },
    },
    calls,
    end,
  };
}

function dedupe(notes: string[]): string[] {
  return [...new Set(notes)];
}
