/**
 * A user price table in LiteLLM's `model_prices_and_context_window.json` format: one object keyed by
 * model name, prices in USD per token. Loaded only from a path the user gives: `--prices FILE`, a whole
 * table, where an entry without per-token input and output prices is no priced model; or
 * `--prices-override FILE`, whose entries may give only some fields of a model the table has (a window
 * alone, prices alone: overrides.ts merges them field by field).
 */
import { readFileSync, statSync } from 'node:fs';
import { sha256Hex } from '../io/builtins.js';
import { MAX_REPORTED_ISSUES, UserError, type InputIssue } from '../errors.js';
import { jsonTextError } from '../import/common/jsonDocument.js';
import { parseJsonFileText } from '../io/jsonFileText.js';
import { DUPLICATE_KEY_HINT, parsedJsonTextProblem } from '../io/jsonText.js';
import { refuseWideText, unreadable } from '../io/inputErrors.js';
import { BYTES_PER_MB, MAX_PRICE_FILE_BYTES } from '../io/limits.js';
import { kindOf } from '../io/openInput.js';
import { usdPerTokenToPico } from '../money.js';
import type { KeyedPrice, TokenPriceKey } from './cost.js';
import { foreignKeys, judgeKey, LITELLM_PRICE_FIELD, PRICE_KEYS, TIER_KEY } from './litellmKeys.js';
import { isComplete, lackedPrices, LiteLlmPriceTable, type Entry, type Unpriced } from './litellmTable.js';
import { checkContextWindow, checkPrice, CONTEXT_WINDOW_KEY, emptyOverrideIssue, tierThreshold } from './litellmValues.js';
import { shownName } from '../shownName.js';
import { withEntryLine, withFieldLine } from './litellmLines.js';
import type { PriceOptionNames } from './optionNames.js';
import type { PriceSource } from './types.js';

export { LiteLlmPriceTable };

/** LiteLLM per-token price fields → TokenPrices fields (litellmKeys.ts LITELLM_PRICE_FIELD, the other way). */
const BASE_FIELDS: Record<string, TokenPriceKey> = Object.fromEntries(Object.entries(LITELLM_PRICE_FIELD).map(([key, field]) => [field, key as TokenPriceKey]));

/** `<base field>_above_<N>k_tokens` (or `m`): the base price for calls whose prompt exceeds N·1000 tokens. */
const TIER_FIELD = TIER_KEY;

/** Modes of chat/completion models: such an entry without per-token prices is found under its own name (then says so). */
const CHAT_MODES = new Set(['chat', 'completion', 'responses']);

const FORMAT_HINT =
  "a price file (--prices, --prices-override) must be LiteLLM's model_prices_and_context_window.json format: one JSON object keyed by model name, prices in USD per token";

const PRICE_KEYS_HINT = `give its prices in USD per token: ${PRICE_KEYS.join(', ')}`;

/** How a price file is read. */
export interface LiteLlmReadOptions {
  /**
   * Read as `--prices-override`: a chat entry (or one without a mode) may give some fields only, the table
   * it overrides giving the rest. This says what is wrong with such an entry (the table has no such model
   * to take the rest from), or undefined when nothing is; every such problem is reported with the others.
   */
  overriding?: (entry: Entry) => InputIssue | undefined;
  /** Whose words an unknown model's hint says the ways out in (default: the CLI's flags; loadPriceTable passes its caller's). */
  optionNames?: PriceOptionNames;
}

/** Reads and validates a LiteLLM price file. Every problem with the file is a UserError naming it. */
export function loadLiteLlmTable(file: string, flag = '--prices', options: LiteLlmReadOptions = {}): LiteLlmPriceTable {
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
    refuseWideText(bytes, file);
  } catch (error) {
    if (error instanceof UserError) throw error;
    // Said as every other path is (`no such file or directory`), under this file's own codes.
    const issue = unreadable(file, error).issues[0]!;
    const missing = issue.code === 'not_found';
    throw new UserError({ ...issue, code: missing ? 'file_not_found' : 'unreadable_file', hint: `check the path given to ${flag}${missing ? '' : ' and its permissions'}` });
  }
  return parseLiteLlmTable(bytes, file, options);
}

/** Parses LiteLLM price JSON (`file` names it in errors and becomes the source name); bytes as any Uint8Array (a Buffer is one). */
export function parseLiteLlmTable(bytes: Uint8Array | string, file: string, options: LiteLlmReadOptions = {}): LiteLlmPriceTable {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const source: PriceSource = Object.freeze({
    name: file,
    version: 'file',
    hash: sha256Hex(buffer).slice(0, 16),
  });
  const text = buffer.toString('utf8').replace(/^\uFEFF/, '');
  const data = parsePriceDocument(text, file);
  const issues: InputIssue[] = [];
  const entries: Entry[] = [];
  const unpriced: Unpriced[] = [];
  const others: Unpriced[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (key === 'sample_spec') continue;
    // Each problem of an entry named by its line (litellmLines.ts).
    const report = (issue: InputIssue): void => {
      if (issues.length < MAX_REPORTED_ISSUES) issues.push(withFieldLine(issue, text, { key, value }));
    };
    const read = readEntry(key, value, file, report, options);
    if (read === undefined) continue;
    if ('entry' in read) entries.push(read.entry);
    else (read.chat ? unpriced : others).push(read.unpriced);
  }
  if (issues.length > 0) throw new UserError(issues);
  const placeIssue = (issue: InputIssue, key: string): InputIssue => withEntryLine(issue, text, { key, value: data[key] });
  return new LiteLlmPriceTable(file, source, entries, { unpriced, others, placeIssue, ...(options.optionNames === undefined ? {} : { optionNames: options.optionNames }) });
}

/**
 * The price file's JSON object. Refused naming file and line: a syntax error; a key given twice (JSON.parse
 * would keep the last silently) or nesting past the limit, as every JSON reader refuses them
 * (src/io/jsonText.ts); a top level that is no object.
 */
function parsePriceDocument(text: string, file: string): Record<string, unknown> {
  const read = parseJsonFileText(text, { file, what: 'a price file', hint: FORMAT_HINT });
  if ('issue' in read) throw new UserError(read.issue);
  const data = read.value;
  const problem = parsedJsonTextProblem(text, data);
  if (problem !== undefined) throw jsonTextError(problem, text, file, problem.code === 'duplicate_key' ? DUPLICATE_KEY_HINT : FORMAT_HINT);
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

/** An entry read: a model's fields, or an entry that prices no token (`chat`: a chat/completion model). */
type Read = { entry: Entry } | { unpriced: Unpriced; chat: boolean };

/**
 * One model's entry read; undefined when refused (reported) or skipped. An entry gives a priced model when
 * it gives per-token input and output prices. Without them: read as `--prices-override`, a chat entry (or
 * one without a mode) that gives some prices or max_input_tokens, and no price in another unit, overrides
 * those fields of the table's model (`options.overriding` checks the table has it); any other such entry
 * prices nothing, and asking for it says what it lacks. Image/audio/embedding entries of an override file
 * are skipped, so LiteLLM's whole file still reads as one.
 */
function readEntry(key: string, value: unknown, file: string, report: (issue: InputIssue) => void, options: LiteLlmReadOptions): Read | undefined {
  const model = shownName(key);
  if (!isEntryObject(value, { model, file, report })) return undefined;
  const fields = readFields(key, value, file, report);
  if (fields === undefined) return undefined;
  const entry: Entry = { key, keyed: fields.keyed, given: fields.given };
  if (typeof value.litellm_provider === 'string') entry.provider = value.litellm_provider;
  if (fields.contextWindow !== undefined) entry.contextWindow = fields.contextWindow;
  if (isComplete(entry)) return { entry };
  const mode = typeof value.mode === 'string' ? value.mode : undefined;
  const chat = mode !== undefined && CHAT_MODES.has(mode);
  const otherUnits = Object.keys(value).filter((field) => value[field] !== null && /cost|price/i.test(field) && judgeKey(field).kind === 'ignored');
  if (options.overriding !== undefined && (chat || mode === undefined) && otherUnits.length === 0) {
    const read = readOverride(entry, value, { model, file, report, overriding: options.overriding });
    if (read !== 'unread') return read;
  }
  if (!chat && options.overriding !== undefined) return undefined;
  const unpriced: Unpriced = { key, lacks: otherUnits.length > 0 ? `per-token prices (only ${otherUnits.slice(0, 3).map(shownName).join(', ')}${otherUnits.length > 3 ? ', …' : ''})` : lackedPrices(entry) };
  if (mode !== undefined) unpriced.mode = mode;
  if (options.overriding === undefined && (chat || mode === undefined) && entry.given.length > 0 && otherUnits.length === 0) unpriced.hint = PARTIAL_ENTRY_HINT;
  return { unpriced, chat };
}

/** Whether an entry is an object with some LiteLLM price field; reported when not. */
function isEntryObject(value: unknown, where: { model: string; file: string; report: (issue: InputIssue) => void }): value is Record<string, unknown> {
  const { model, file, report } = where;
  if (!isPlainObject(value)) {
    report({ file, field: model, code: 'invalid_type', message: `entry for model '${model}' must be an object of prices, got ${describeType(value)}`, hint: FORMAT_HINT });
    return false;
  }
  const foreign = foreignKeys(Object.keys(value));
  if (foreign.length === 0) return true;
  report({
    file,
    field: model,
    code: 'no_known_fields',
    message: `entry for model '${model}' has no field loopcost reads (${foreign.slice(0, 5).map(shownName).join(', ')} ${foreign.length === 1 ? 'is' : 'are'} not LiteLLM price fields)`,
    hint: PRICE_KEYS_HINT,
  });
  return false;
}

/**
 * A chat entry of an override file without full prices: the fields it gives override the table's model;
 * an output limit alone or nothing to override is reported (undefined); 'unread' when it is neither.
 */
function readOverride(
  entry: Entry,
  value: Record<string, unknown>,
  where: { model: string; file: string; report: (issue: InputIssue) => void; overriding: NonNullable<LiteLlmReadOptions['overriding']> },
): Read | undefined | 'unread' {
  const { model, file, report } = where;
  if (entry.given.length > 0) {
    const issue = where.overriding(entry);
    if (issue === undefined) return { entry };
    report(issue);
    return undefined;
  }
  const limit = OUTPUT_LIMIT_KEYS.find((field) => typeof value[field] === 'number');
  if (limit !== undefined) {
    report({
      file,
      field: `${model}.${limit}`,
      code: 'no_context_window_key',
      message: `entry for model '${model}' gives ${limit} but no max_input_tokens and no price, so it overrides nothing: loopcost reads a model's context window from ${CONTEXT_WINDOW_KEY} only (${limit === 'max_tokens' ? "LiteLLM's max_tokens is the output limit of many models" : 'max_output_tokens limits the reply, not the prompt'})`,
      hint: `give the context window in tokens as ${CONTEXT_WINDOW_KEY}`,
    });
    return undefined;
  }
  const empty = emptyOverrideIssue(value, file, model);
  if (empty === undefined) return 'unread';
  report(empty);
  return undefined;
}

/** Fields LiteLLM writes a model's output limit in (max_tokens for some models its window): never read as the window. */
const OUTPUT_LIMIT_KEYS = ['max_tokens', 'max_output_tokens'] as const;

const PARTIAL_ENTRY_HINT =
  'a --prices file is the whole table: add input_cost_per_token and output_cost_per_token (USD per token) to its entry; to give only some fields (a window, a price) of a model the bundled table prices, pass the file with --prices-override instead';

interface EntryFields {
  keyed: Partial<Record<TokenPriceKey, KeyedPrice>>;
  contextWindow: number | undefined;
  /** The price fields and max_input_tokens it gives (not null, a window not 0), file order. */
  given: string[];
}

/** The prices and context window of an entry; undefined when a field is refused (each reported). */
function readFields(key: string, value: Record<string, unknown>, file: string, report: (issue: InputIssue) => void): EntryFields | undefined {
  const fields: EntryFields = { keyed: {}, contextWindow: undefined, given: [] };
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
      else if (window !== undefined) {
        fields.contextWindow = window;
        fields.given.push(field);
      }
    } else if (raw !== null && raw !== undefined && (BASE_FIELDS[field] !== undefined || TIER_FIELD.test(field))) {
      const price = checkPrice(raw, file, at);
      const threshold = BASE_FIELDS[field] === undefined ? tierThreshold(field, file, at) : undefined;
      if (typeof threshold === 'object') refuse(threshold);
      else if (typeof price === 'number') {
        addPrice(fields.keyed, { field, threshold }, usdPerTokenToPico(price));
        fields.given.push(field);
      } else refuse(price);
    }
  }
  return valid ? fields : undefined;
}

/** A price field's price (picodollars per token) put in its place: a base price, or a tier above some prompt size. */
function addPrice(keyed: Partial<Record<TokenPriceKey, KeyedPrice>>, { field, threshold }: { field: string; threshold: number | undefined }, pico: number): void {
  const baseKey = BASE_FIELDS[field];
  if (baseKey !== undefined) {
    (keyed[baseKey] ??= { tiers: [] }).base = pico;
    return;
  }
  const target = BASE_FIELDS[TIER_FIELD.exec(field)![1]!]!;
  (keyed[target] ??= { tiers: [] }).tiers.push({ aboveInputTokens: threshold!, price: pico });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
