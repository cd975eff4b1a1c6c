/**
 * A user price table in LiteLLM's `model_prices_and_context_window.json` format: one object keyed by
 * model name, prices in USD per token. Loaded only from a path the user gives (`--prices FILE`).
 */
import { readFileSync, statSync } from 'node:fs';
import { sha256Hex } from '../io/builtins.js';
import { MAX_REPORTED_ISSUES, UserError, type InputIssue } from '../errors.js';
import { jsonTextError, lineOfOffset } from '../import/common/jsonDocument.js';
import { parsedJsonTextProblem } from '../io/jsonText.js';
import { BYTES_PER_MB, MAX_PRICE_FILE_BYTES } from '../io/limits.js';
import { kindOf } from '../io/openInput.js';
import { usdPerTokenToPico } from '../money.js';
import type { KeyedPrice, TokenPriceKey } from './cost.js';
import { foreignKeys, judgeKey, PRICE_KEYS, TIER_KEY } from './litellmKeys.js';
import { LiteLlmPriceTable, type Entry, type Unpriced } from './litellmTable.js';
import { checkContextWindow, checkPrice, CONTEXT_WINDOW_KEY } from './litellmValues.js';
import { shownName } from '../shownName.js';
import type { PriceSource } from './types.js';

export { LiteLlmPriceTable };

/** LiteLLM per-token price fields → TokenPrices fields. */
const BASE_FIELDS: Record<string, TokenPriceKey> = {
  input_cost_per_token: 'input',
  cache_read_input_token_cost: 'cachedInput',
  cache_creation_input_token_cost: 'cacheWrite',
  cache_creation_input_token_cost_above_1hr: 'cacheWrite1h',
  output_cost_per_token: 'output',
  output_cost_per_reasoning_token: 'reasoning',
};

/** `<base field>_above_<N>k_tokens` (or `m`): the base price for calls whose prompt exceeds N·1000 tokens. */
const TIER_FIELD = TIER_KEY;

/** Modes whose entries are token-priced chat/completion models; other modes without token prices are skipped. */
const CHAT_MODES = new Set(['chat', 'completion', 'responses']);

const FORMAT_HINT =
  "a price file (--prices, --prices-override) must be LiteLLM's model_prices_and_context_window.json format: one JSON object keyed by model name, prices in USD per token";

const DUPLICATE_HINT = 'keep the one you mean and delete the other: JSON readers keep only the last of a repeated key, silently';

const PRICE_KEYS_HINT = `give its prices in USD per token: ${PRICE_KEYS.join(', ')}`;

/** Reads and validates a LiteLLM price file. Every problem with the file is a UserError naming it. */
export function loadLiteLlmTable(file: string, flag = '--prices'): LiteLlmPriceTable {
  let bytes: Buffer;
  try {
    // A named pipe with no writer would block the read for ever; a directory or device is no price file.
    const stats = statSync(file);
    if (!stats.isFile()) {
      throw new UserError({ file, code: 'not_a_file', message: `is ${kindOf(stats)}, not a price file`, hint: `give ${flag} the path of a regular file (save a downloaded table first)` });
    }
    if (stats.size > MAX_PRICE_FILE_BYTES) {
      const mb = (bytes: number) => `${Math.ceil(bytes / BYTES_PER_MB).toLocaleString('en-US')} MB`;
      throw new UserError({ file, code: 'too_large', message: `is ${mb(stats.size)}, more than a price file's ${mb(MAX_PRICE_FILE_BYTES)}`, hint: `check the path given to ${flag}: a LiteLLM price table is a few MB of JSON` });
    }
    bytes = readFileSync(file);
  } catch (error) {
    if (error instanceof UserError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError({
      file,
      code: code === 'ENOENT' ? 'file_not_found' : 'unreadable_file',
      message: `cannot read price file: ${(error as Error).message}`,
      hint: `check the path given to ${flag}`,
    });
  }
  return parseLiteLlmTable(bytes, file);
}

/** Parses LiteLLM price JSON (`file` names it in errors and becomes the source name). */
export function parseLiteLlmTable(bytes: Buffer | string, file: string): LiteLlmPriceTable {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  const source: PriceSource = Object.freeze({
    name: file,
    version: 'file',
    hash: sha256Hex(buffer).slice(0, 16),
  });
  const data = parsePriceDocument(buffer.toString('utf8').replace(/^\uFEFF/, ''), file);
  const issues: InputIssue[] = [];
  const entries: Entry[] = [];
  const unpriced: Unpriced[] = [];
  const report = (issue: InputIssue): void => {
    if (issues.length < MAX_REPORTED_ISSUES) issues.push(issue);
  };
  for (const [key, value] of Object.entries(data)) {
    if (key === 'sample_spec') continue;
    const read = readEntry(key, value, file, report);
    if (read === undefined) continue;
    if ('keyed' in read) entries.push(read);
    else unpriced.push(read);
  }
  if (issues.length > 0) throw new UserError(issues);
  return new LiteLlmPriceTable(file, source, entries, unpriced);
}

/**
 * The price file's JSON object. Refused naming file and line: a syntax error; a key given twice (JSON.parse
 * would keep the last silently) or nesting past the limit, as every JSON reader refuses them
 * (src/io/jsonText.ts); a top level that is no object.
 */
function parsePriceDocument(text: string, file: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message);
    throw new UserError({
      file,
      ...(position ? { line: lineOfOffset(text, Number(position[1])) } : {}),
      code: 'invalid_json',
      message: `price file is not valid JSON: ${message}`,
      hint: FORMAT_HINT,
    });
  }
  const problem = parsedJsonTextProblem(text, data);
  if (problem !== undefined) throw jsonTextError(problem, text, file, problem.code === 'duplicate_key' ? DUPLICATE_HINT : FORMAT_HINT);
  if (!isPlainObject(data)) {
    throw new UserError({
      file,
      code: 'invalid_type',
      message: `price file must be a JSON object keyed by model name, got ${describeType(data)}`,
      hint: FORMAT_HINT,
    });
  }
  return data;
}

/** One model's entry read: its prices, or a chat model without per-token prices; undefined when refused (reported) or skipped. */
function readEntry(key: string, value: unknown, file: string, report: (issue: InputIssue) => void): Entry | Unpriced | undefined {
  const model = shownName(key);
  if (!isPlainObject(value)) {
    report({ file, field: model, code: 'invalid_type', message: `entry for model '${model}' must be an object of prices, got ${describeType(value)}`, hint: FORMAT_HINT });
    return undefined;
  }
  const foreign = foreignKeys(Object.keys(value));
  if (foreign.length > 0) {
    report({
      file,
      field: model,
      code: 'no_known_fields',
      message: `entry for model '${model}' has no field loopcost reads (${foreign.slice(0, 5).map(shownName).join(', ')} ${foreign.length === 1 ? 'is' : 'are'} not LiteLLM price fields)`,
      hint: PRICE_KEYS_HINT,
    });
    return undefined;
  }
  const fields = readFields(key, value, file, report);
  if (fields === undefined) return undefined;
  const { keyed, contextWindow } = fields;
  const mode = typeof value.mode === 'string' ? value.mode : undefined;
  if (keyed.input?.base === undefined || keyed.output?.base === undefined) {
    // Image/audio/embedding/rerank entries (or entries without a mode) are not chat models: skip them.
    return mode !== undefined && CHAT_MODES.has(mode) ? { key, mode } : undefined;
  }
  const entry: Entry = { key, keyed };
  if (typeof value.litellm_provider === 'string') entry.provider = value.litellm_provider;
  if (contextWindow !== undefined) entry.contextWindow = contextWindow;
  return entry;
}

interface EntryFields {
  keyed: Partial<Record<TokenPriceKey, KeyedPrice>>;
  contextWindow: number | undefined;
}

/** The prices and context window of an entry; undefined when a field is refused (each reported). */
function readFields(key: string, value: Record<string, unknown>, file: string, report: (issue: InputIssue) => void): EntryFields | undefined {
  const fields: EntryFields = { keyed: {}, contextWindow: undefined };
  let valid = true;
  const refuse = (issue: InputIssue): void => {
    report(issue);
    valid = false;
  };
  for (const [field, raw] of Object.entries(value)) {
    const at = `${shownName(key)}.${shownName(field)}`;
    const verdict = judgeKey(field);
    if (verdict.kind === 'misspelled' || verdict.kind === 'unknown_price') {
      refuse({
        file,
        field: at,
        code: 'unknown_price_key',
        message: verdict.kind === 'misspelled' ? `unknown key '${shownName(field)}'` : `unknown price key '${shownName(field)}' (loopcost reads prices in USD per token)`,
        hint: verdict.nearest === undefined ? PRICE_KEYS_HINT : `did you mean ${verdict.nearest}?`,
      });
    } else if (field === CONTEXT_WINDOW_KEY) {
      const window = checkContextWindow(raw, file, at);
      if (typeof window === 'object') refuse(window);
      else fields.contextWindow = window;
    } else if (raw !== null && raw !== undefined && (BASE_FIELDS[field] !== undefined || TIER_FIELD.test(field))) {
      const price = checkPrice(raw, file, at);
      if (typeof price === 'number') addPrice(fields.keyed, field, usdPerTokenToPico(price));
      else refuse(price);
    }
  }
  return valid ? fields : undefined;
}

/** A price field's price (picodollars per token) put in its place: a base price, or a tier above some prompt size. */
function addPrice(keyed: Partial<Record<TokenPriceKey, KeyedPrice>>, field: string, pico: number): void {
  const baseKey = BASE_FIELDS[field];
  if (baseKey !== undefined) {
    (keyed[baseKey] ??= { tiers: [] }).base = pico;
    return;
  }
  const tier = TIER_FIELD.exec(field)!;
  const target = BASE_FIELDS[tier[1]!]!;
  const threshold = Math.round(Number(tier[2]) * (tier[3] === 'm' ? 1_000_000 : tier[3] === 'k' ? 1_000 : 1));
  (keyed[target] ??= { tiers: [] }).tiers.push({ aboveInputTokens: threshold, price: pico });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
