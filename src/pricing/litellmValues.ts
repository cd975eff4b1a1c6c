/**
 * The numeric fields of a LiteLLM price entry checked (litellm.ts reads the file): a price in USD per
 * token, and `max_input_tokens`, the model's context window. Each gives the number, or the issue that
 * refuses the file naming the field, so no bad value is ignored or read as something else.
 */
import type { InputIssue } from '../errors.js';
import { PICO_PER_USD, usdPerTokenToPico } from '../money.js';
import { shownName } from '../shownName.js';
import { PRICE_KEYS, TIER_KEY } from './litellmKeys.js';

/** The field of a price entry that holds the model's context window. */
export const CONTEXT_WINDOW_KEY = 'max_input_tokens';

/** A value as a message shows it: a number as JavaScript reads it (1e400 is Infinity), anything else as JSON, cut when long. */
function shownValue(raw: unknown): string {
  return typeof raw === 'number' ? String(raw) : shownName(JSON.stringify(raw) ?? String(raw));
}

/**
 * The most a token may cost: $1 ($1,000,000 per million tokens, some thousand times any model's price).
 * Money is held in integer picodollars up to 2^53 − 1 a run (about $9,007): past $1 a token, a run of
 * some thousand tokens could not be priced, and the file, not the run, is what is wrong.
 */
export const MAX_USD_PER_TOKEN = 1;

const PRICE_HINT = 'fix the price in the file (USD per token, e.g. 2.5e-6 for $2.50 per million tokens)';

/** A price in USD per token: a finite number, 0 or more, at most MAX_USD_PER_TOKEN, and 0 or at least the finest price held (1 picodollar a token). */
export function checkPrice(raw: unknown, file: string, field: string): number | InputIssue {
  if (typeof raw !== 'number' || !Number.isFinite(raw)) {
    return {
      file,
      field,
      code: 'invalid_number',
      message: `price must be a finite number of USD per token, got ${shownValue(raw)}`,
      hint: 'write prices as JSON numbers, e.g. 2.5e-6 for $2.50 per million tokens',
    };
  }
  if (raw < 0) {
    return {
      file,
      field,
      code: 'negative_number',
      message: `price must not be negative, got ${raw}`,
      hint: PRICE_HINT,
    };
  }
  return priceRangeIssue(raw, file, field) ?? raw;
}

/** A price past what a token can cost, or one above 0 that rounds to 0 picodollars (it would bill nothing). */
function priceRangeIssue(usdPerToken: number, file: string, field: string): InputIssue | undefined {
  if (usdPerToken > MAX_USD_PER_TOKEN) {
    return {
      file,
      field,
      code: 'price_out_of_range',
      message: `price of $${usdPerToken} per token is more than $${MAX_USD_PER_TOKEN} per token ($1,000,000 per million tokens), past which a run of a few thousand tokens costs more than exact picodollars hold (about $9,007)`,
      hint: `${PRICE_HINT}; a price per million tokens is written divided by 1,000,000`,
    };
  }
  if (usdPerToken > 0 && usdPerTokenToPico(usdPerToken) === 0) {
    return {
      file,
      field,
      code: 'price_out_of_range',
      message: `price of $${usdPerToken} per token is above 0 but rounds to 0 picodollars, so it would bill nothing: the finest price loopcost holds is 1 picodollar per token ($${1 / PICO_PER_USD}, $0.000001 per million tokens)`,
      hint: `${PRICE_HINT}; write 0 for a free model`,
    };
  }
  return undefined;
}

const CONTEXT_WINDOW_HINT = `write ${CONTEXT_WINDOW_KEY} as a JSON whole number of tokens, e.g. 128000, or leave it out when the window is not known`;

/**
 * `max_input_tokens`: a whole number of tokens, or undefined for none given (absent, null, or 0, as
 * LiteLLM-style tables write an unknown window). A string, a fraction, a negative number or one past
 * 2^53 − 1 (1e400 reads as Infinity) is refused.
 */
export function checkContextWindow(raw: unknown, file: string, field: string): number | undefined | InputIssue {
  if (raw === undefined || raw === null || raw === 0) return undefined;
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw)) {
    return { file, field, code: 'invalid_number', message: `the context window must be a whole number of tokens, got ${shownValue(raw)}`, hint: CONTEXT_WINDOW_HINT };
  }
  if (raw < 0) return { file, field, code: 'negative_number', message: `the context window must not be negative, got ${raw}`, hint: CONTEXT_WINDOW_HINT };
  return raw;
}

/** The fields that give nothing, as written: `input_cost_per_token, output_cost_per_token: null`, `max_input_tokens: 0, which reads as no window …`. */
function givenNothing(value: Record<string, unknown>, named: readonly string[]): string {
  const zeroWindow = named.filter((field) => field === CONTEXT_WINDOW_KEY && value[field] === 0);
  const nulls = named.filter((field) => !zeroWindow.includes(field));
  return [...(nulls.length > 0 ? [`${nulls.map(shownName).join(', ')}: null`] : []), ...zeroWindow.map((field) => `${shownName(field)}: 0, which reads as no window (as price tables write an unknown one)`)].join('; ');
}

/**
 * An override entry that gives no price and no window, refused: it names none of their fields (an
 * empty entry), or each it names is null (a window 0). Undefined for one that names no such field but
 * others (a provider, capabilities: LiteLLM's own file has such entries, which price nothing and are skipped).
 */
export function emptyOverrideIssue(value: Record<string, unknown>, file: string, model: string): InputIssue | undefined {
  const fields = Object.keys(value);
  const named = fields.filter((field) => field === CONTEXT_WINDOW_KEY || (PRICE_KEYS as readonly string[]).includes(field) || TIER_KEY.test(field));
  if (fields.length > 0 && named.length === 0) return undefined;
  return {
    file,
    field: model,
    code: 'empty_override',
    message: `entry for model '${model}' ${named.length === 0 ? 'is empty' : `gives no value (${givenNothing(value, named)})`}, so it overrides nothing`,
    hint: `give the fields to override (prices in USD per token: ${PRICE_KEYS.join(', ')}; the window as ${CONTEXT_WINDOW_KEY}), or delete the entry to keep the table's`,
  };
}

/**
 * A tier key's prompt size (`input_cost_per_token_above_200k_tokens`: 200,000 tokens, `…_above_1.5m_tokens`:
 * 1,500,000), or the issue that refuses the file naming the key: a size past 2^53 − 1 tokens is held by no
 * token count, so such a tier could never be chosen exactly (and `prices` would show it as a column of its own).
 */
export function tierThreshold(field: string, file: string, at: string): number | InputIssue {
  const tier = TIER_KEY.exec(field)!;
  const threshold = Math.round(Number(tier[2]) * (tier[3] === 'm' ? 1_000_000 : tier[3] === 'k' ? 1_000 : 1));
  if (Number.isSafeInteger(threshold)) return threshold;
  return {
    file,
    field: at,
    code: 'tier_out_of_range',
    message: `is a tier above ${tier[2]}${tier[3] ?? ''} tokens, past 2^53 − 1 (9,007,199,254,740,991) tokens: no prompt's size is counted exactly there`,
    hint: `write the prompt size the tier starts above as a whole number of tokens up to 2^53 − 1 (e.g. ${tier[1]}_above_200k_tokens), or delete the key`,
  };
}
