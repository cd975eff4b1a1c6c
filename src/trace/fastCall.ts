/**
 * A fast path for the bulk of a native file, its `call` records: a record of the common shape that
 * callSchema (schema.ts) certainly accepts is recognised here without zod; anything else — a `failed`
 * call, an unknown key, a wrong type, a value out of range — returns false and zod decides (and words
 * the issues). Sound by construction and by test (test/trace/fastCall.test.ts: whatever this accepts,
 * zod accepts): it only ever skips work, never changes a verdict.
 */

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A whole token count (zod: int, non-negative). */
function isTokens(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
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
        hasResult = isTokens(value);
        if (!hasResult) return false;
        break;
      case 'error':
        if (value !== null && typeof value !== 'string') return false;
        break;
      case 'latencyMs':
        if (!isAmount(value)) return false;
        break;
      case 'id':
        if (typeof value !== 'string' || value.length === 0) return false;
        break;
      default:
        return false;
    }
  }
  return named && hasArguments && hasResult;
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
        hasOutput = isTokens(value);
        if (!hasOutput) return false;
        break;
      case 'inputTokens':
      case 'cachedInputTokens':
      case 'cacheWriteTokens':
      case 'cacheWrite1hTokens':
      case 'reasoningTokens':
        if (!isTokens(value)) return false;
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
      default:
        // `failed`, or a key the schema does not know: zod decides.
        return false;
    }
  }
  return hasOutput;
}
