/**
 * A user price table in LiteLLM's `model_prices_and_context_window.json` format: one object keyed by
 * model name, prices in USD per token. Loaded only from a path the user gives (`--prices FILE`).
 */
import { readFileSync, statSync } from 'node:fs';
import { sha256Hex } from '../io/builtins.js';
import { MAX_REPORTED_ISSUES, UserError, type InputIssue } from '../errors.js';
import { kindOf } from '../io/openInput.js';
import { usdPerTokenToPico } from '../money.js';
import type { KeyedPrice, TokenPriceKey } from './cost.js';
import { foreignKeys, judgeKey, PRICE_KEYS, TIER_KEY } from './litellmKeys.js';
import { LiteLlmPriceTable, type Entry, type Unpriced } from './litellmTable.js';
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

/** Reads and validates a LiteLLM price file. Every problem with the file is a UserError naming it. */
export function loadLiteLlmTable(file: string, flag = '--prices'): LiteLlmPriceTable {
  let bytes: Buffer;
  try {
    // A named pipe with no writer would block the read for ever; a directory or device is no price file.
    const stats = statSync(file);
    if (!stats.isFile()) {
      throw new UserError({ file, code: 'not_a_file', message: `is ${kindOf(stats)}, not a price file`, hint: `give ${flag} the path of a regular file (save a downloaded table first)` });
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
  const text = buffer.toString('utf8').replace(/^\uFEFF/, '');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message);
    const line = position ? text.slice(0, Number(position[1])).split('\n').length : undefined;
    throw new UserError({
      file,
      ...(line !== undefined ? { line } : {}),
      code: 'invalid_json',
      message: `price file is not valid JSON: ${message}`,
      hint: FORMAT_HINT,
    });
  }
  if (!isPlainObject(data)) {
    throw new UserError({
      file,
      code: 'invalid_type',
      message: `price file must be a JSON object keyed by model name, got ${describeType(data)}`,
      hint: FORMAT_HINT,
    });
  }

  const issues: InputIssue[] = [];
  const entries: Entry[] = [];
  const unpriced: Unpriced[] = [];
  const report = (issue: InputIssue): void => {
    if (issues.length < MAX_REPORTED_ISSUES) issues.push(issue);
  };

  for (const [key, value] of Object.entries(data)) {
    if (key === 'sample_spec') continue;
    if (!isPlainObject(value)) {
      report({
        file,
        field: key,
        code: 'invalid_type',
        message: `entry for model '${key}' must be an object of prices, got ${describeType(value)}`,
        hint: FORMAT_HINT,
      });
      continue;
    }
    const keyed: Partial<Record<TokenPriceKey, KeyedPrice>> = {};
    let valid = true;
    const foreign = foreignKeys(Object.keys(value));
    if (foreign.length > 0) {
      report({
        file,
        field: key,
        code: 'no_known_fields',
        message: `entry for model '${key}' has no field loopcost reads (${foreign.slice(0, 5).join(', ')} ${foreign.length === 1 ? 'is' : 'are'} not LiteLLM price fields)`,
        hint: `give its prices in USD per token: ${PRICE_KEYS.join(', ')}`,
      });
      continue;
    }
    for (const [field, raw] of Object.entries(value)) {
      const verdict = judgeKey(field);
      if (verdict.kind === 'misspelled' || verdict.kind === 'unknown_price') {
        report({
          file,
          field: `${key}.${field}`,
          code: 'unknown_price_key',
          message: verdict.kind === 'misspelled' ? `unknown key '${field}'` : `unknown price key '${field}' (loopcost reads prices in USD per token)`,
          hint: `did you mean ${verdict.nearest}?`,
        });
        valid = false;
        continue;
      }
      const baseKey = BASE_FIELDS[field];
      const tier = baseKey === undefined ? TIER_FIELD.exec(field) : null;
      if (baseKey === undefined && !tier) continue;
      if (raw === null || raw === undefined) continue;
      const price = checkPrice(raw, file, `${key}.${field}`);
      if (typeof price !== 'number') {
        report(price);
        valid = false;
        continue;
      }
      const pico = usdPerTokenToPico(price);
      if (baseKey !== undefined) {
        const slot = (keyed[baseKey] ??= { tiers: [] });
        slot.base = pico;
      } else if (tier) {
        const target = BASE_FIELDS[tier[1]!]!;
        const threshold = Math.round(Number(tier[2]) * (tier[3] === 'm' ? 1_000_000 : tier[3] === 'k' ? 1_000 : 1));
        const slot = (keyed[target] ??= { tiers: [] });
        slot.tiers.push({ aboveInputTokens: threshold, price: pico });
      }
    }
    if (!valid) continue;
    const mode = typeof value.mode === 'string' ? value.mode : undefined;
    if (keyed.input?.base === undefined || keyed.output?.base === undefined) {
      // Image/audio/embedding/rerank entries (or entries without a mode) are not chat models: skip them.
      if (mode !== undefined && CHAT_MODES.has(mode)) unpriced.push({ key, mode });
      continue;
    }
    const entry: Entry = { key, keyed };
    if (typeof value.litellm_provider === 'string') entry.provider = value.litellm_provider;
    const maxInput = value.max_input_tokens;
    if (typeof maxInput === 'number' && Number.isSafeInteger(maxInput) && maxInput > 0) entry.contextWindow = maxInput;
    entries.push(entry);
  }
  if (issues.length > 0) throw new UserError(issues);
  return new LiteLlmPriceTable(file, source, entries, unpriced);
}

function checkPrice(raw: unknown, file: string, field: string): number | InputIssue {
  if (typeof raw !== 'number' || !Number.isFinite(raw)) {
    return {
      file,
      field,
      code: 'invalid_number',
      message: `price must be a finite number of USD per token, got ${JSON.stringify(raw)}`,
      hint: 'write prices as JSON numbers, e.g. 2.5e-6 for $2.50 per million tokens',
    };
  }
  if (raw < 0) {
    return {
      file,
      field,
      code: 'negative_number',
      message: `price must not be negative, got ${raw}`,
      hint: 'fix the price in the file (USD per token, e.g. 2.5e-6 for $2.50 per million tokens)',
    };
  }
  return raw;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
