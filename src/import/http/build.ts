/**
 * Provider exchanges → native traces. Each model call (request + response) is one CallRecord; HTTP
 * failures are kept as failed calls with zero usage. Exchanges are parsed (parseExchange.ts), split into
 * runs (splitRuns.ts; one Trace each), and the tool results of call k are read from the history of the
 * next request of the same run.
 */
import { UserError } from '../../errors.js';
import type { CallRecord, ToolCallRecord, Trace, TraceEnd } from '../../trace/types.js';
import { TRACE_SCHEMA } from '../../trace/types.js';
import { inputError } from '../common/issues.js';
import { isJsonObject } from '../common/jsonValue.js';
import { clip } from '../common/text.js';
import { refusedCall } from '../common/contextRefusal.js';
import { countTokens } from '../tokenCount.js';
import { parseExchange, type GenerationExchange, type ParsedExchange } from './parseExchange.js';
import { toolCall, type NormMessage, type NormToolResult, type ParsedRequest, type ParsedToolCall } from './parsedBodies.js';
import { addedHistory, splitAtAnswers, splitRuns } from './splitRuns.js';
import { reasoningInPromptOf } from './reasoningReturn.js';
import { responseTime } from './responseTime.js';
import { counted } from '../../plural.js';
import { picoToUsd, usdToPico } from '../../money.js';

/** A note about something skipped, placed after the generation exchange with index `after` (-1: before all). */
export interface PositionedNote {
  after: number;
  note: string;
}

/**
 * Tool calls a failed call still produced: Groq rejects a malformed tool call with HTTP 400
 * `tool_use_failed` + `failed_generation`, and pydantic-ai puts that call into the history with a retry
 * prompt as its result. Taken from the next request's new assistant turn; [] for other failures.
 */
function failedGenerationCalls(run: ParsedExchange[], k: number): ParsedToolCall[] {
  const cur = run[k];
  const next = run[k + 1];
  const body = cur?.body;
  if (cur === undefined || next === undefined || !isJsonObject(body) || !isJsonObject(body.error)) return [];
  if (body.error.failed_generation === undefined) return [];
  return (addedHistory(cur, next) ?? [])
    .filter((m) => m.role === 'assistant')
    .flatMap((m) => m.toolCalls)
    .filter((c) => c.name !== '')
    .map((c) => toolCall(c.id, c.name, c.arguments ?? {}));
}

/** Tool-call records of call `k`, with results looked up in the next request of the run. */
function toolCallsOf(run: ParsedExchange[], k: number, calls: ParsedToolCall[], model: string, notes: string[]): ToolCallRecord[] {
  const cur = run[k];
  if (cur === undefined || calls.length === 0) return [];
  const next = run[k + 1];
  if (next === undefined) {
    // The run's last call asked for tools: no later exchange of the run carries their results, so the run has no end here.
    notes.push(`${cur.ex.label}: the run's last call asked for ${calls.length === 1 ? 'tool call' : 'tool calls'} ${calls.map((c) => c.name).join(', ')} and no later exchange carries ${calls.length === 1 ? 'its result' : 'their results'}: the run has no end in the recording (cut short after it?); resultTokens 0`);
    return calls.map((c) => ({ name: c.name, arguments: c.arguments, resultTokens: 0 }));
  }

  // Results by call id, from the first later request that carries them (normally the next one; after a
  // Responses compaction call, the one after it).
  const byId = new Map<string, NormToolResult>();
  for (const later of run.slice(k + 1)) {
    for (const t of later.req.messages.flatMap((m: NormMessage) => m.toolResults)) {
      if (t.id !== undefined && !byId.has(t.id)) byId.set(t.id, t);
    }
  }
  const tail = (addedHistory(cur, next) ?? []).flatMap((m) => m.toolResults);
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
    const skipped = opts.skipped?.length ?? 0;
    throw new UserError({
      file: opts.file,
      code: 'no_model_calls',
      message: `no model call found${skipped > 0 ? ` among its ${skipped} exchange(s), all skipped (${clip(opts.skipped![0]!.note, 120)}${skipped > 1 ? ', …' : ''})` : ''}`,
      hint: 'record the agent loop itself (chat/completions, responses, messages, generateContent, converse, …); a file with only other traffic is not a trace',
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

function buildTrace(run: ParsedExchange[], source: string, opts: BuildOptions, skipped: string[], splitNote?: string): Trace {
  const first = run[0]!;
  const model = runModel(run);
  // A guessed provider is best read off a successful response (an error body says little).
  const providerFrom = first.ex.providerGuessed ? (run.find((p) => p.res !== undefined) ?? first) : first;
  const notes = openingNotes(run, providerFrom, [...(opts.fileNotes ?? []), ...(splitNote ? [splitNote] : [])]);
  // Dated by the container's time of an exchange (a cassette's recorded_at or date header), else by a response body's own.
  const recordedAt = run.map((p) => p.ex.recordedAt ?? responseTime(p.body)).find((at) => at !== undefined);
  const calls = run.map((p, k) => callRecord(run, k, model, notes));
  const reasoning = reasoningInPromptOf(run);
  if (reasoning.note !== undefined) notes.push(reasoning.note);
  notes.push(...skipped);
  const end = runEnd(run, calls);
  return {
    source,
    // The line the model was read from (the run's first exchange), as the missing model names it.
    ...(first.ex.line !== undefined ? { headerLine: first.ex.line } : {}),
    header: {
      type: 'header',
      schema: TRACE_SCHEMA,
      model,
      provider: providerFrom.ex.provider,
      systemTokens: countTokens(first.req.system, model),
      // A run that opens with a compaction call states its goal in the request after it.
      goalTokens: countTokens(firstUserText((run.find((p) => !p.ex.compact) ?? first).req), model),
      origin: 'recorded',
      ...(recordedAt !== undefined ? { recordedAt } : {}),
      ...reasoning.field,
      importedFrom: { format: opts.format, path: opts.file, ...(notes.length > 0 ? { notes: dedupe(notes) } : {}) },
    },
    calls,
    end,
  };
}

/** The run's model: its first request's, else its first response's; a run without one is refused. */
function runModel(run: ParsedExchange[]): string {
  const first = run[0]!;
  const model = first.req.model ?? first.res?.model;
  if (model === undefined) {
    throw inputError(
      { file: first.ex.file, line: first.ex.line, field: `${first.ex.requestBase}.model` },
      'missing_field',
      'no model name in the request, the URI or the response',
      'add the model to the request body (or the url field)',
    );
  }
  return model;
}

/** The notes that open the run's: `notes` (the file's, the split), then its provider, endpoints and streams. */
function openingNotes(run: ParsedExchange[], providerFrom: ParsedExchange, notes: string[]): string[] {
  if (providerFrom.ex.providerGuessed) notes.push(`provider ${providerFrom.ex.provider} guessed from the body shape (no url)`);
  if (providerFrom.ex.providerIsHost) notes.push(`provider hint is the host ${providerFrom.ex.provider} (no known provider serves it): prices are found by model name`);
  for (const p of run) if (p.ex.endpointNote !== undefined) notes.push(`${p.ex.label}: ${p.ex.endpointNote}`);
  const streamed = run.filter((p) => p.streamed !== undefined);
  if (streamed.length > 0) {
    const framings = [...new Set(streamed.map((p) => p.streamed!.framing))].join(', ');
    notes.push(`${streamed.length} of ${counted(run.length, 'call')} streamed (${framings}), reassembled from ${streamed.reduce((n, p) => n + p.streamed!.events, 0)} events`);
  }
  return notes;
}

/** The call of exchange `k` of the run (its request's and response's notes added to `notes`). */
function callRecord(run: ParsedExchange[], k: number, model: string, notes: string[]): CallRecord {
  const p = run[k]!;
  for (const n of [...p.req.notes, ...(p.res?.notes ?? [])]) notes.push(`${p.ex.label}: ${n}`);
  if (p.failed) return failedCall(run, k, model, notes);
  const res = p.res!;
  const u = res.usage;
  const toolCalls = toolCallsOf(run, k, res.toolCalls, model, notes);
  const latencyMs = res.latencyMs ?? p.ex.latencyMs;
  return {
    type: 'call',
    inputTokens: u.inputTokens,
    ...(u.cachedInputTokens !== undefined ? { cachedInputTokens: u.cachedInputTokens } : {}),
    ...(u.cacheWriteTokens !== undefined ? { cacheWriteTokens: u.cacheWriteTokens } : {}),
    ...(u.cacheWrite1hTokens !== undefined ? { cacheWrite1hTokens: u.cacheWrite1hTokens } : {}),
    outputTokens: u.outputTokens,
    ...(u.reasoningTokens !== undefined ? { reasoningTokens: u.reasoningTokens } : {}),
    ...(u.webSearchRequests !== undefined && u.webSearchRequests > 0 ? { webSearchRequests: u.webSearchRequests } : {}),
    ...(latencyMs !== undefined ? { latencyMs } : {}),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    ...(toolCalls.length === 0 && !res.hasText && !p.ex.compact ? { unparseable: true } : {}),
    ...(p.ex.compact ? { compaction: true } : {}),
    ...(u.recordedCostUsd !== undefined ? { recordedCostUsd: u.recordedCostUsd } : {}),
  };
}

/** The failed call of exchange `k`: no usage, the malformed tool call the provider rejected kept. */
function failedCall(run: ParsedExchange[], k: number, model: string, notes: string[]): CallRecord {
  const p = run[k]!;
  const failure = p.failed!;
  const rejected = toolCallsOf(run, k, failedGenerationCalls(run, k), model, notes);
  if (rejected.length > 0) notes.push(`${p.ex.label}: the provider rejected a malformed tool call (failed_generation); kept as the failed call's tool call`);
  const failed: CallRecord = { type: 'call', inputTokens: 0, outputTokens: 0, ...(rejected.length > 0 ? { toolCalls: rejected } : {}), failed: failure };
  // A refusal for length bills nothing (no usage): the run ends there (a retry after it: endRunsAtRefusals).
  return failure.contextLengthExceeded === undefined ? failed : refusedCall(failed, failure.contextLengthExceeded);
}

/** The run's end: how its last exchange ended (an answer marks the last call final), its calls and recorded cost. */
function runEnd(run: ParsedExchange[], calls: CallRecord[]): TraceEnd {
  const last = run[run.length - 1]!;
  const lastOk = [...run].reverse().find((p) => p.res !== undefined);
  let end: TraceEnd;
  if (last.failed) {
    end = { type: 'end', outcome: 'error', status: last.failed.status !== undefined ? `HTTP ${last.failed.status}` : 'error response' };
  } else if (lastOk && lastOk.res!.toolCalls.length === 0 && !lastOk.ex.compact) {
    end = { type: 'end', outcome: 'completed' };
    calls[calls.length - 1]!.final = true;
  } else {
    end = { type: 'end', outcome: 'unknown' };
  }
  end.recordedCalls = calls.length;
  const ok = calls.filter((c) => !c.failed);
  if (ok.length > 0 && ok.every((c) => c.recordedCostUsd !== undefined)) {
    // Summed in exact picodollars (as replay sums recorded call costs), not in float dollars.
    end.recordedCostUsd = picoToUsd(ok.reduce((s, c) => s + usdToPico(c.recordedCostUsd!), 0));
  }
  return end;
}

function dedupe(notes: string[]): string[] {
  return [...new Set(notes)];
}
