/**
 * The usage of one Claude Code response (`message.usage`), read and validated field by field: the token
 * counts a call is priced by, and what else bills it that loopcost's token prices do not hold (web
 * searches, fast mode, US-only inference: pricingNotes.ts says them).
 *
 * A count written as `null` is refused at its field, as a string or a fraction is: Claude Code writes
 * every count it records as a number, so a null one is a damaged or edited line, and read as 0 it would
 * split one response's lines into two calls (their prompt usage would differ).
 */
import type { IssueCollector } from '../common/issues.js';
import { isJsonObject, type JsonObject } from '../common/jsonValue.js';

/** Anthropic usage of one response, as the line records it. */
export interface ClaudeUsage {
  input: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  cacheRead: number;
  output: number;
  /** Part of `output` spent on thinking (`output_tokens_details.thinking_tokens`, Claude Code 2.1.2xx), when recorded. */
  thinking?: number;
  /**
   * The usage of each `compaction` entry of `usage.iterations`: server-side compaction (beta
   * `compact-2026-01-12`) samples a summary before the response, billed on top of the top-level fields,
   * which leave it out (Anthropic's compaction documentation; @ai-sdk/anthropic sums them). The other
   * entries (`message`, one per sampling of a server-tool loop) are inside the top-level figures.
   */
  compactions?: ClaudeUsage[];
  /** `server_tool_use.web_search_requests`, when above 0: billed per search on top of the tokens. */
  webSearches?: number;
  /** `server_tool_use.web_fetch_requests`, when above 0: billed as tokens only. */
  webFetches?: number;
  /** `speed`, when not standard (`fast`: fast mode, billed at its own prices). */
  speed?: string;
  /** `inference_geo`, when it names a region (`us`: US-only inference, billed above the global price). */
  inferenceGeo?: string;
}

/** `inference_geo` values that bill the standard (global) price: Claude Code writes these for most calls. */
const STANDARD_GEO = new Set(['', 'global', 'not_available']);
/** `speed` values that bill the standard price. */
const STANDARD_SPEED = new Set(['', 'standard']);

/** A token count of `usage[key]`: absent is undefined (an issue when `required`), null or a non-count an issue. */
function countOf(fields: IssueCollector, usage: JsonObject, key: string, at: string, required = false): number | undefined {
  const value = usage[key];
  if (value === null) {
    fields.add(`${at}.${key}`, 'wrong_type', `is null (expected a token count, a non-negative integer${required ? '' : ', or the field left out'})`);
    return undefined;
  }
  return required ? fields.reqCount(value, `${at}.${key}`) : fields.optCount(value, `${at}.${key}`);
}

/** The web searches and fetches, fast mode and region of a usage (each only when it bills beyond the standard). */
function readExtras(fields: IssueCollector, usage: JsonObject, at: string): Pick<ClaudeUsage, 'webSearches' | 'webFetches' | 'speed' | 'inferenceGeo'> {
  const server = fields.optObject(usage.server_tool_use, `${at}.server_tool_use`);
  const searches = server ? countOf(fields, server, 'web_search_requests', `${at}.server_tool_use`) : 0;
  const fetches = server ? countOf(fields, server, 'web_fetch_requests', `${at}.server_tool_use`) : 0;
  const speed = fields.optString(usage.speed, `${at}.speed`);
  const geo = fields.optString(usage.inference_geo, `${at}.inference_geo`);
  return {
    ...(searches !== undefined && searches > 0 ? { webSearches: searches } : {}),
    ...(fetches !== undefined && fetches > 0 ? { webFetches: fetches } : {}),
    ...(speed !== undefined && !STANDARD_SPEED.has(speed) ? { speed } : {}),
    ...(geo !== undefined && !STANDARD_GEO.has(geo) ? { inferenceGeo: geo } : {}),
  };
}

export function readUsage(fields: IssueCollector, raw: unknown, at: string): ClaudeUsage | undefined {
  const usage = fields.object(raw, at);
  if (!usage) return undefined;
  const before = fields.issues.length;
  const input = countOf(fields, usage, 'input_tokens', at, true);
  const output = countOf(fields, usage, 'output_tokens', at, true);
  const cacheWrite = countOf(fields, usage, 'cache_creation_input_tokens', at) ?? 0;
  const cacheRead = countOf(fields, usage, 'cache_read_input_tokens', at) ?? 0;
  const split = fields.optObject(usage.cache_creation, `${at}.cache_creation`);
  const write1h = split ? (countOf(fields, split, 'ephemeral_1h_input_tokens', `${at}.cache_creation`) ?? 0) : 0;
  // The 5-minute part is what the 1-hour part leaves of cache_creation_input_tokens; a bad one is still a bad line.
  const write5m = split ? (countOf(fields, split, 'ephemeral_5m_input_tokens', `${at}.cache_creation`) ?? 0) : 0;
  const outputDetails = fields.optObject(usage.output_tokens_details, `${at}.output_tokens_details`);
  const thinking = outputDetails ? countOf(fields, outputDetails, 'thinking_tokens', `${at}.output_tokens_details`) : undefined;
  const compactions = readCompactions(fields, usage.iterations, `${at}.iterations`);
  const extras = readExtras(fields, usage, at);
  if (input === undefined || output === undefined || compactions === undefined || fields.issues.length > before) return undefined;
  if (write1h > cacheWrite) {
    fields.add(`${at}.cache_creation.ephemeral_1h_input_tokens`, 'invalid_value', `1-hour cache writes (${write1h}) exceed cache_creation_input_tokens (${cacheWrite})`);
    return undefined;
  }
  if (write5m + write1h > cacheWrite) {
    fields.add(`${at}.cache_creation.ephemeral_5m_input_tokens`, 'invalid_value', `5-minute and 1-hour cache writes (${write5m} + ${write1h}) exceed cache_creation_input_tokens (${cacheWrite})`);
    return undefined;
  }
  if (thinking !== undefined && thinking > output) {
    fields.add(`${at}.output_tokens_details.thinking_tokens`, 'inconsistent_usage', `thinking tokens (${thinking}) exceed the output_tokens (${output}) they are part of`);
    return undefined;
  }
  return {
    input,
    cacheWrite5m: cacheWrite - write1h,
    cacheWrite1h: write1h,
    cacheRead,
    output,
    ...(thinking === undefined ? {} : { thinking }),
    ...(compactions.length === 0 ? {} : { compactions }),
    ...extras,
  };
}

/** The usage of the `compaction` entries of `usage.iterations` (none when absent); undefined when one is invalid. */
function readCompactions(fields: IssueCollector, raw: unknown, at: string): ClaudeUsage[] | undefined {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    fields.add(at, 'wrong_type', `expected an array of iterations, got ${typeof raw}`);
    return undefined;
  }
  const compactions: ClaudeUsage[] = [];
  for (const [k, entry] of raw.entries()) {
    if (!isJsonObject(entry) || entry.type !== 'compaction') continue;
    const usage = readUsage(fields, entry, `${at}[${k}]`);
    if (!usage) return undefined;
    // An iteration's own usage is inside its compaction call: the response's extras are the response's.
    const { webSearches: _s, webFetches: _f, speed: _p, inferenceGeo: _g, ...tokens } = usage;
    compactions.push(tokens);
  }
  return compactions;
}
