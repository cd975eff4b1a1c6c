/**
 * A fast path for a native file's records: a record of the common shape that the schemas (schema.ts)
 * certainly accept is recognised here without zod (a failed call and a provider's refusal of one included); anything else — a header with
 * `recordedAt` or `agent`, an unknown key, a wrong type, a value out of range — returns false and zod
 * decides (and words the issues). Sound by construction and by test (test/trace/fastRecord.test.ts:
 * whatever this accepts, zod accepts): it only ever skips work, never changes a verdict. Calls are the
 * bulk of a file; headers and ends matter at start (a file of common records never builds the schemas).
 */
import { isHttpStatus } from '../import/http/status.js';
import { isTokenCount } from '../io/limits.js';
import { TRACE_SCHEMA } from './types.js';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}


/** A finite non-negative number (zod: number, non-negative). */
function isAmount(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isPlainToolCall(tool: unknown): boolean {
  if (!isRecord(tool)) return false;
  let named = false, hasArguments = false, hasResult = false;
  for (const key in tool) {
    const value = tool[key];
    switch (key) {
      case 'name':
        named = typeof value === 'string' && value.length > 0;
        if (!named) return false;
        break;
      case 'arguments':
        hasArguments = true;
        break;
      case 'resultTokens':
        hasResult = isTokenCount(value);
        if (!hasResult) return false;
        break;
      case 'error':
        if (value !== null && typeof value !== 'string') return false;
        break;
      case 'latencyMs':
        if (!isAmount(value)) return false;
        break;
      case 'id':
      case 'startedAgentId':
        if (typeof value !== 'string' || value.length === 0) return false;
        break;
      case 'unreached':
        if (typeof value !== 'boolean') return false;
        break;
      default:
        return false;
    }
  }
  return named && hasArguments && hasResult;
}

/** A refusal's numbers (`contextLengthExceeded`): `{ promptTokens?, maxOutputTokens?, contextWindowTokens? }`, token counts. */
function isPlainRefusal(value: unknown): boolean {
  if (!isRecord(value)) return false;
  for (const key in value) {
    if (key !== 'promptTokens' && key !== 'maxOutputTokens' && key !== 'contextWindowTokens') return false;
    if (!isTokenCount(value[key])) return false;
  }
  return true;
}

/** A failed call's `failed`: `{ status?, message, estimated?, contextLengthExceeded? }`, the status an HTTP status (100–599), the message a string, `estimated` true (a live recording's sent or unread call). */
function isPlainFailure(value: unknown): boolean {
  if (!isRecord(value) || typeof value.message !== 'string') return false;
  for (const key in value) {
    if (key === 'status') {
      if (!isHttpStatus(value.status)) return false;
    } else if (key === 'contextLengthExceeded') {
      if (!isPlainRefusal(value.contextLengthExceeded)) return false;
    } else if (key === 'estimated') {
      if (value.estimated !== true) return false;
    } else if (key !== 'message') return false;
  }
  return true;
}

/** True only for a `call` record callSchema accepts; false means "ask zod". One pass over its keys. */
export function isSurelyValidCall(raw: unknown): boolean {
  if (!isRecord(raw) || raw.type !== 'call') return false;
  let hasOutput = false;
  for (const key in raw) {
    const value = raw[key];
    switch (key) {
      case 'type':
        break;
      case 'outputTokens':
        hasOutput = isTokenCount(value);
        if (!hasOutput) return false;
        break;
      case 'inputTokens':
      case 'cachedInputTokens':
      case 'cacheWriteTokens':
      case 'cacheWrite1hTokens':
      case 'reasoningTokens':
      case 'webSearchRequests':
        if (!isTokenCount(value)) return false;
        break;
      case 'latencyMs':
      case 'startMs':
      case 'recordedCostUsd':
        if (!isAmount(value)) return false;
        break;
      case 'final':
      case 'backtrack':
      case 'unparseable':
      case 'compaction':
        if (typeof value !== 'boolean') return false;
        break;
      case 'toolCalls':
        if (!Array.isArray(value)) return false;
        for (let i = 0; i < value.length; i++) if (!isPlainToolCall(value[i])) return false;
        break;
      case 'failed':
        if (!isPlainFailure(value)) return false;
        break;
      default:
        // A key the schema does not know: zod decides.
        return false;
    }
  }
  return hasOutput;
}

const ORIGINS: ReadonlySet<unknown> = new Set(['recorded', 'synthetic']);
const OUTCOMES: ReadonlySet<unknown> = new Set(['completed', 'error', 'timeout', 'limit', 'unknown']);

/** `importedFrom`: `{ format, path, notes? }`, strings. */
function isPlainImportedFrom(value: unknown): boolean {
  if (!isRecord(value) || typeof value.format !== 'string' || typeof value.path !== 'string') return false;
  for (const key in value) {
    if (key === 'notes') {
      if (!Array.isArray(value.notes) || !value.notes.every((note) => typeof note === 'string')) return false;
    } else if (key !== 'format' && key !== 'path') return false;
  }
  return true;
}

const isCount = (value: unknown, least: number): boolean => Number.isSafeInteger(value) && (value as number) >= least;

/** A generated run's ground truth (`synthetic`): behaviour, seed, run, taskDone; name and scenario strings; steps ≥ 1. */
function isPlainSynthetic(value: unknown): boolean {
  if (!isRecord(value) || typeof value.behaviour !== 'string' || value.behaviour.length === 0) return false;
  if (!isCount(value.seed, 0) || !isCount(value.run, 0) || typeof value.taskDone !== 'boolean') return false;
  for (const key in value) {
    switch (key) {
      case 'behaviour':
      case 'seed':
      case 'run':
      case 'taskDone':
        break;
      case 'name':
      case 'scenario':
        if (typeof value[key] !== 'string') return false;
        break;
      case 'doneAtStep':
      case 'stuckFromStep':
      case 'hardCapSteps':
        if (!isCount(value[key], 1)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/**
 * True only for a `header` record headerSchema accepts, of the common shape (a generated run's ground
 * truth included: every header `loopcost generate` writes; recordedAt, settings and agent go to zod).
 */
export function isSurelyValidHeader(raw: unknown): boolean {
  if (!isRecord(raw) || raw.type !== 'header' || raw.schema !== TRACE_SCHEMA) return false;
  if (typeof raw.model !== 'string' || raw.model.length === 0 || !isTokenCount(raw.systemTokens) || !isTokenCount(raw.goalTokens)) return false;
  for (const key in raw) {
    const value = raw[key];
    switch (key) {
      case 'type':
      case 'schema':
      case 'model':
      case 'systemTokens':
      case 'goalTokens':
        break;
      case 'provider':
      case 'task':
        if (typeof value !== 'string') return false;
        break;
      case 'origin':
        if (!ORIGINS.has(value)) return false;
        break;
      case 'live':
        if (typeof value !== 'boolean') return false;
        break;
      case 'importedFrom':
        if (!isPlainImportedFrom(value)) return false;
        break;
      case 'synthetic':
        if (!isPlainSynthetic(value)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** True only for an `end` record endSchema accepts. */
export function isSurelyValidEnd(raw: unknown): boolean {
  if (!isRecord(raw) || raw.type !== 'end' || !OUTCOMES.has(raw.outcome)) return false;
  for (const key in raw) {
    const value = raw[key];
    switch (key) {
      case 'type':
      case 'outcome':
        break;
      case 'status':
        if (typeof value !== 'string') return false;
        break;
      case 'aborted':
        if (value !== true) return false;
        break;
      case 'recordedCostUsd':
        if (!isAmount(value)) return false;
        break;
      case 'recordedInputTokens':
      case 'recordedOutputTokens':
      case 'recordedCalls':
        if (!isTokenCount(value)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** True only for a record the schemas accept; false means "ask zod". */
export function isSurelyValidRecord(raw: unknown): boolean {
  return isSurelyValidCall(raw) || isSurelyValidHeader(raw) || isSurelyValidEnd(raw);
}
