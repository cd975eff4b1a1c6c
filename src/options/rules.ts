/**
 * The rules for the options the library's entry points take (runAgentLoop, replayTrace, runScenario,
 * replayTree, runAgentTree), one per field, written once: each entry point's validator (agent/validate.ts,
 * options/entryPoints.ts) calls these and throws one UserError listing every issue before anything runs.
 * A limit the brakes could not hold exactly, an unknown setting or a strategy `--context` could not say is
 * refused here, not mid-run.
 */
import { UserError } from '../errors.js';
import { NO_BRAKES, type BrakeConfig } from '../brakes/config.js';
import { canonicalJson } from '../brakes/fingerprint.js';
import { contextSpecOf, parseContextSpec, type ContextStrategy, type SummarySpec } from '../context/strategy.js';
import { nearestField, unknownFieldsHint } from '../import/common/nearestName.js';
import { MAX_LATENCY_PART_MS, MAX_LATENCY_PART_TEXT } from '../io/limits.js';
import { MAX_RUN_COST_TEXT } from '../money.js';
import { TOKEN_PRICE_KEYS } from '../pricing/cost.js';
import { isObject, OptionIssues, shown, type Issue } from './issues.js';
import { BRAKE_NUMBERS } from '../brakes/rules.js';
import { numberIssue } from './numberArguments.js';

export { isObject, OptionIssues, shown, type Issue } from './issues.js';

/** The `file` an entry point's option issues name: `<replayTrace options>` (the CLI's are `<command line>`). */
export function optionsFile(entry: string): string {
  return `<${entry} options>`;
}

/** Checks an entry point's `options` (an object of the `keys` given) with `check`, and throws every issue found as one UserError. */
export function validateOptions(entry: string, options: unknown, keys: readonly string[], check: (issue: Issue, options: Record<string, unknown>) => void): void {
  const issues = new OptionIssues(optionsFile(entry));
  if (objectIssue(issues.add, '', options, `${entry} takes an options object`, true)) {
    unknownKeyIssues(issues.add, '', options, keys, 'option');
    check(issues.add, options);
  }
  issues.throwIfAny();
}

const NO_LIMIT = 'leave it out for no limit';

/** A count given as a limit: whole, ≥ 1, at most 2^53 − 1, as the CLI's flags and every reader of a recording take a count. */
export function countIssue(issue: Issue, field: string, value: unknown, hint = NO_LIMIT): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) > 0)) issue(field, 'invalid_number', `${shown(value)} is not a positive whole number (at most 2^53 − 1)`, hint);
}

/** A count where 0 means none allowed (`--max-backtracks 0`, `skip,max-skips=0`, `warning=0`), or a seed, a run index. */
export function countFromZeroIssue(issue: Issue, field: string, value: unknown, hint = NO_LIMIT): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 0)) issue(field, 'invalid_number', `${shown(value)} is not a whole number, 0 or more (at most 2^53 − 1)`, hint);
}

/** A number of tokens a prompt part or cap is (0 or more). */
export function tokensIssue(issue: Issue, field: string, value: unknown, hint: string): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 0)) issue(field, 'invalid_number', `${shown(value)} is not a whole number of tokens, 0 or more`, hint);
}

/** Money: whole picodollars, 0 or more, at most 2^53 − 1 (the most one run's spend is counted exactly). */
export function picoIssue(issue: Issue, field: string, value: unknown): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 0)) {
    issue(field, 'invalid_number', `${shown(value)} is not a whole number of picodollars, 0 or more (at most 2^53 − 1, ${MAX_RUN_COST_TEXT}): picodollars are whole`, 'usdToPico(0.5) gives $0.50 in picodollars; leave it out for no limit');
  }
}

/** One of some names (a mode, an engine). */
export function choiceIssue(issue: Issue, field: string, value: unknown, allowed: readonly string[], hint: string): void {
  if (value !== undefined && !allowed.includes(value as string)) issue(field, 'invalid_value', `${shown(value)} is not one of ${allowed.join(', ')}`, hint);
}

/** Each key of `value` not among `known`, refused by name with the nearest known one (a typo would silently set nothing). */
export function unknownKeyIssues(issue: Issue, field: string, value: Record<string, unknown>, known: readonly string[], what: string, aliases: Record<string, string> = {}): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const hint = aliases[key] ?? unknownFieldsHint([key], known) ?? '';
    issue(field === '' ? key : `${field}.${key}`, 'unrecognized_keys', `unknown ${what} ${JSON.stringify(key)}`, hint);
  }
}

/** An object option: `undefined` passes unless `required`; anything else but a plain object is named. True when it is an object to check further. */
export function objectIssue(issue: Issue, field: string, value: unknown, hint: string, required = false): value is Record<string, unknown> {
  if (value === undefined && !required) return false;
  if (isObject(value)) return true;
  issue(field, value === undefined ? 'missing_field' : 'invalid_value', value === undefined ? 'is missing' : `${shown(value)} is not an object`, hint);
  return false;
}

/** `true` when `Keys` lists every key of `T` (a list of known keys the compiler holds complete), else the keys it lacks. */
export type ListsEvery<T, Keys extends readonly PropertyKey[]> = [Exclude<keyof T, Keys[number]>] extends [never] ? true : Exclude<keyof T, Keys[number]>;

/** Counts given as limits (whole, ≥ 1), and counts where 0 means none allowed: each by its flag's rule (brakes/rules.ts BRAKE_NUMBERS). */
const COUNTS = ['maxSteps', 'maxRepeat', 'maxSameError', 'maxTokens', 'maxOutputTokens'] as const;
const COUNTS_FROM_ZERO = ['maxBacktracks', 'maxSkips', 'skipWarningTokens'] as const;
const MODES = { budgetMode: ['check', 'predict'], repeatMode: ['total', 'consecutive', 'cycle'], sameErrorMode: ['consecutive', 'total'], repeatAction: ['stop', 'skip'] } as const;
/** Every brake setting (BrakeConfig's keys: the compiler holds the list complete). */
export const BRAKE_KEYS = [...COUNTS, ...COUNTS_FROM_ZERO, 'maxCostPico', 'timeoutMs', 'contextWindow', ...(Object.keys(MODES) as (keyof typeof MODES)[])] as const;
const BRAKE_KEYS_COMPLETE: ListsEvery<BrakeConfig, typeof BRAKE_KEYS> = true;
void BRAKE_KEYS_COMPLETE;
/** The flags' names whose key adds a unit (`--max-cost` USD is maxCostPico). */
const BRAKE_ALIASES: Record<string, string> = {
  maxCost: 'did you mean maxCostPico? It takes picodollars: usdToPico(0.5) is $0.50',
  timeout: 'did you mean timeoutMs? It takes milliseconds',
  skipWarning: 'did you mean skipWarningTokens?',
  preset: 'a preset is a whole set of brakes: pass it as brakes (REFERENCE_PRESET, or { ...REFERENCE_PRESET, maxSteps: 20 })',
};

/** Brake settings (`brakes`): an object of known settings, each a limit the brakes can hold exactly. */
export function brakeIssues(issue: Issue, brakes: unknown, field = 'brakes'): void {
  if (!objectIssue(issue, field, brakes, 'brake settings, e.g. { maxSteps: 12 } or REFERENCE_PRESET')) return;
  unknownKeyIssues(issue, field, brakes, BRAKE_KEYS, 'brake setting', BRAKE_ALIASES);
  for (const key of [...COUNTS, ...COUNTS_FROM_ZERO]) numberIssue(issue, brakes[key], { field: `${field}.${key}`, hint: NO_LIMIT, number: BRAKE_NUMBERS[key].rule, optional: true });
  picoIssue(issue, `${field}.maxCostPico`, brakes.maxCostPico);
  const timeout = brakes.timeoutMs;
  if (timeout !== undefined && !(Number.isFinite(timeout) && (timeout as number) >= 0)) issue(`${field}.timeoutMs`, 'invalid_number', `${shown(timeout)} is not a number of milliseconds, 0 or more`, NO_LIMIT);
  // A clock holds whole milliseconds exactly up to 2^53 − 1 (as --timeout and a recording's timeoutMs take it).
  else if (typeof timeout === 'number' && timeout > Number.MAX_SAFE_INTEGER) issue(`${field}.timeoutMs`, 'too_large', `${shown(timeout)} ms is more than 2^53 − 1 ms, the most a run's clock holds exactly`, NO_LIMIT);
  if (brakes.contextWindow !== 'model') numberIssue(issue, brakes.contextWindow, { field: `${field}.contextWindow`, hint: "a token count, or 'model'", number: BRAKE_NUMBERS.contextWindow.rule, optional: true });
  for (const [key, allowed] of Object.entries(MODES)) {
    choiceIssue(issue, `${field}.${key}`, brakes[key], allowed, `leave it out for ${(NO_BRAKES as unknown as Record<string, string>)[key] ?? 'stop'}`);
  }
}

/** A sub-agent's own limits (`subagent`, `subagentLimits`): its steps and its spend, as the brakes' rules. */
export function subagentLimitIssues(issue: Issue, limits: unknown, field: string): void {
  if (!objectIssue(issue, field, limits, '{ maxSteps, maxCostPico }')) return;
  unknownKeyIssues(issue, field, limits, ['maxSteps', 'maxCostPico'], 'sub-agent limit', { maxCost: BRAKE_ALIASES.maxCost! });
  countIssue(issue, `${field}.maxSteps`, limits.maxSteps);
  picoIssue(issue, `${field}.maxCostPico`, limits.maxCostPico);
}

/**
 * A tree's per-agent limits as an entry point takes them: `subagentLimits` (runAgentLoop's name), or
 * `subagent`, the tree entry points' old name for it (deprecated, accepted for one release) — not both.
 */
export function treeSubagentLimitIssues(issue: Issue, options: Record<string, unknown>): void {
  subagentLimitIssues(issue, options.subagentLimits, 'subagentLimits');
  subagentLimitIssues(issue, options.subagent, 'subagent');
  if (options.subagentLimits !== undefined && options.subagent !== undefined) {
    issue('subagent', 'conflicting_options', 'is given with subagentLimits: subagent is its deprecated name', 'give subagentLimits alone');
  }
}

/** Prompt caching the usage reports (`--cache`, a strategy's cache, startServer's cache for recorded traces). */
export const CACHE_MODES = ['on', 'off', 'recorded'] as const;
const STRATEGY_HINT = "e.g. { kind: 'window', windowSteps: 8 }, or FULL_HISTORY";

/**
 * A context strategy holds only what `--context` can say (the one parser of strategies checks it: the
 * strategy written as a spec must parse back to itself), with a tool-result cap and cache mode as their flags take.
 */
/** What a strategy says that its kind does not hold (a field of another kind: `placeholderTokens` on a window), else the whole. */
function strategyMismatch(shape: object, parsed: object): string {
  const foreign = Object.keys(shape).filter((key) => !(key in parsed) && (shape as Record<string, unknown>)[key] !== undefined);
  const kind = String((shape as { kind?: unknown }).kind);
  if (foreign.length === 0) return `${canonicalJson(shape)} is not a context strategy`;
  return `${foreign.join(', ')} ${foreign.length === 1 ? 'does' : 'do'} not apply to a '${kind}' strategy (${canonicalJson(shape)})`;
}

export function strategyIssues(issue: Issue, strategy: unknown, field: string, required = false): void {
  if (!objectIssue(issue, field, strategy, STRATEGY_HINT, required)) return;
  const { toolResultCap, cache, ...shape } = strategy as unknown as ContextStrategy;
  if (strategyShapeIssues(issue, strategy, field)) specIssues(issue, strategy, shape, field);
  tokensIssue(issue, `${field}.toolResultCap`, toolResultCap, 'leave it out for no cap');
  choiceIssue(issue, `${field}.cache`, cache, CACHE_MODES, 'leave it out: the cache the run reports is billed');
}

const STRATEGY_KINDS = ['full', 'window', 'mask', 'summary', 'hybrid'] as const;
const STRATEGY_KEYS = ['kind', 'windowSteps', 'maskSteps', 'maskBatchSteps', 'placeholderTokens', 'summary', 'toolResultCap', 'cache'] as const;
const SUMMARY_KEYS = ['triggerTokens', 'triggerPercent', 'keepSteps', 'summaryTokens', 'model'] as const;
const STRATEGY_KEYS_COMPLETE: [ListsEvery<ContextStrategy, typeof STRATEGY_KEYS>, ListsEvery<SummarySpec, typeof SUMMARY_KEYS>] = [true, true];
void STRATEGY_KEYS_COMPLETE;
const SUMMARY_HINT = "e.g. summary: { triggerTokens: 8000, keepSteps: 3, summaryTokens: 500 } (or triggerPercent: 80)";
/** A summary setting written on the strategy itself: it belongs in its `summary` object. */
const SUMMARY_ALIASES: Record<string, string> = Object.fromEntries(SUMMARY_KEYS.map((key) => [key, `${key} is a summary setting: it goes in the strategy's summary object, ${SUMMARY_HINT}`]));

/**
 * The strategy's keys, its kind and its summary object's keys, checked before it is read as a spec: a
 * misspelt or misplaced key is named (with the nearest known one), never said of a spec the user did not
 * write. True when the shape holds nothing unknown, so the spec's own checks can say the rest.
 */
function strategyShapeIssues(issue: Issue, strategy: Record<string, unknown>, field: string): boolean {
  let found = 0;
  const counted: Issue = (...said) => void ((found += 1), issue(...said));
  unknownKeyIssues(counted, field, strategy, STRATEGY_KEYS, 'strategy setting', SUMMARY_ALIASES);
  const { kind, summary } = strategy;
  if (!STRATEGY_KINDS.includes(kind as never)) {
    const near = typeof kind === 'string' ? nearestField(kind, STRATEGY_KINDS) : undefined;
    counted(field, kind === undefined ? 'missing_field' : 'invalid_strategy', kind === undefined ? 'has no kind' : `kind ${shown(kind)} is not a context strategy`, `${near === undefined ? '' : `did you mean ${near}? `}one of ${STRATEGY_KINDS.join(', ')}`);
  } else if ((kind === 'summary' || kind === 'hybrid') && summary === undefined) {
    counted(`${field}.summary`, 'missing_field', `is missing: a '${kind}' strategy needs its summary settings`, SUMMARY_HINT);
  }
  if (summary !== undefined && objectIssue(counted, `${field}.summary`, summary, SUMMARY_HINT)) summaryShapeIssues(counted, summary, `${field}.summary`);
  return found === 0;
}

/** A summary object's keys: none unknown, keepSteps and summaryTokens given, and one trigger. */
function summaryShapeIssues(issue: Issue, summary: Record<string, unknown>, field: string): void {
  unknownKeyIssues(issue, field, summary, SUMMARY_KEYS, 'summary setting');
  for (const key of ['keepSteps', 'summaryTokens'] as const) if (summary[key] === undefined) issue(`${field}.${key}`, 'missing_field', 'is missing', SUMMARY_HINT);
  const triggers = (['triggerTokens', 'triggerPercent'] as const).filter((key) => summary[key] !== undefined).length;
  if (triggers !== 1) issue(field, triggers === 0 ? 'missing_field' : 'conflicting_options', triggers === 0 ? 'has no trigger' : 'gives triggerTokens and triggerPercent', 'give one: triggerTokens (tokens) or triggerPercent (of the context window)');
}

/** The strategy read as the spec `--context` would say it: it must parse back to itself. */
function specIssues(issue: Issue, strategy: Record<string, unknown>, shape: object, field: string): void {
  let spec = '';
  try {
    spec = contextSpecOf(strategy as unknown as ContextStrategy);
    const parsed = parseContextSpec(spec, field);
    if (canonicalJson(parsed) !== canonicalJson(shape)) issue(field, 'invalid_strategy', strategyMismatch(shape, parsed), `written as the spec '${spec}' (parseContextSpec) it would be ${canonicalJson(parsed)}`);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    // The spec's own refusal (`'<spec>': keep must be …`) said of the strategy given, its spec written once.
    const said = error.issues[0]!.message.replace(`'${spec}': `, '');
    issue(field, 'invalid_strategy', `written as the spec '${spec}' (parseContextSpec): ${said}`, error.issues[0]!.hint ?? '');
  }
}

/** A cache mode (`--cache`). */
export function cacheModeIssue(issue: Issue, field: string, value: unknown, required = false): void {
  if (value === undefined && required) issue(field, 'missing_field', 'is missing', `one of ${CACHE_MODES.join(', ')}`);
  else choiceIssue(issue, field, value, CACHE_MODES, '--cache takes the same');
}

/**
 * One model's prices (`pricing`), as a price table resolves them: every entry point that takes prices
 * checks them here. Each price whole picodollars per token (input and output given), its tiers a list of
 * such prices: a fraction, a negative, NaN or a missing price would be counted inexactly or fail mid-run.
 */
export function pricingIssue(issue: Issue, field: string, pricing: unknown, required = true): void {
  if (pricing === undefined && !required) return;
  if (!isObject(pricing) || !isObject(pricing.base)) return issue(field, 'missing_field', pricing === undefined ? 'has no prices' : `${shown(pricing)} is not a model's prices`, "resolve them: loadPriceTable().resolve('gpt-4o')");
  // A misspelt price (`cachedinput`) would be read as left out, billed at the price it falls back to: named.
  const pricesIssues = (at: string, prices: Record<string, unknown>) => (unknownKeyIssues(issue, at, prices, TOKEN_PRICE_KEYS, 'price'), tokenPricesIssues(issue, at, prices));
  pricesIssues(`${field}.base`, pricing.base);
  if (!Array.isArray(pricing.tiers)) return issue(`${field}.tiers`, 'invalid_value', `${shown(pricing.tiers)} is not a list of price tiers`, "[] for none; loadPriceTable().resolve('gpt-4o') gives a model's prices whole");
  pricing.tiers.forEach((tier: unknown, i) => {
    const at = `${field}.tiers[${i}]`;
    if (!isObject(tier) || !isObject(tier.prices)) return issue(at, 'invalid_value', `${shown(tier)} is not { aboveInputTokens, prices }`, 'a whole-prompt tier: its threshold and its prices');
    countFromZeroIssue(issue, `${at}.aboveInputTokens`, tier.aboveInputTokens, 'the prompt size in tokens past which the tier bills');
    pricesIssues(`${at}.prices`, tier.prices);
  });
  cacheRuleIssue(issue, `${field}.cacheRule`, pricing.cacheRule);
}

/** A stated cache rule (pricing/cacheRules.ts): a minimum prefix of 0 or more tokens, hits in steps of 1 or more. */
function cacheRuleIssue(issue: Issue, field: string, rule: unknown): void {
  if (rule === undefined) return;
  if (!isObject(rule)) return issue(field, 'invalid_value', `${shown(rule)} is not a cache rule`, 'NO_CACHE_RULE for none, or { minPrefixTokens, incrementTokens, source }; leave it out for the provider\'s');
  const { minPrefixTokens, incrementTokens, source } = rule;
  const [minHint, stepHint] = ['the smallest prefix the cache serves, e.g. 1024', 'the step a cached prefix grows by, e.g. 128 (1: any length)'];
  if (minPrefixTokens === undefined) issue(`${field}.minPrefixTokens`, 'missing_field', 'is missing', minHint);
  else tokensIssue(issue, `${field}.minPrefixTokens`, minPrefixTokens, minHint);
  if (incrementTokens === undefined) issue(`${field}.incrementTokens`, 'missing_field', 'is missing', stepHint);
  else countIssue(issue, `${field}.incrementTokens`, incrementTokens, stepHint);
  if (source !== undefined && typeof source !== 'string') issue(`${field}.source`, 'invalid_value', `${shown(source)} is not a string`, "the rule in words, as reports quote it, e.g. 'my proxy: from 1,200 tokens, 100-token steps'");
}

/** Each price of TokenPrices (the pricing module's keys): whole picodollars per token, 0 or more; input and output given. */
function tokenPricesIssues(issue: Issue, field: string, prices: Record<string, unknown>): void {
  for (const key of TOKEN_PRICE_KEYS) {
    const price = prices[key];
    if (price === undefined && key !== 'input' && key !== 'output') continue;
    if (!(Number.isSafeInteger(price) && (price as number) >= 0)) {
      issue(`${field}.${key}`, price === undefined ? 'missing_field' : 'invalid_number', `${shown(price)} is not a price in whole picodollars per token, 0 or more`, "e.g. 150000 for $0.15 per million tokens; loadPriceTable().resolve('gpt-4o') gives a model's prices whole");
    }
  }
}

/** A price table (`prices`): one that resolves a model's prices. */
export function priceTableIssue(issue: Issue, field: string, prices: unknown): void {
  if (typeof (prices as { resolve?: unknown } | null | undefined)?.resolve !== 'function') {
    issue(field, 'missing_field', prices === undefined ? 'has no price table' : `${shown(prices)} is not a price table`, 'loadPriceTable() gives the bundled prices');
  }
}

/** A model named (`model`: re-price as this model): a name as the price table knows it. */
export function modelNameIssue(issue: Issue, field: string, name: unknown, required = false): void {
  if (name === undefined && !required) return;
  if (typeof name !== 'string' || name.trim() === '') issue(field, 'invalid_model', `${shown(name)} is not a model name`, "a model as priced, e.g. 'gpt-4o-mini'");
}

const LATENCY_KEYS = ['perCallMs', 'perInputTokenMs', 'perOutputTokenMs', 'perToolCallMs'] as const;

/** A latency model: its four parts in milliseconds, each 0 or more and at most a day (as `--latency-model` takes them). */
export function latencyIssues(issue: Issue, latency: unknown, field = 'latency'): void {
  if (!objectIssue(issue, field, latency, '{ perCallMs, perInputTokenMs, perOutputTokenMs, perToolCallMs }')) return;
  unknownKeyIssues(issue, field, latency, LATENCY_KEYS, 'latency part');
  for (const key of LATENCY_KEYS) {
    const ms = latency[key];
    if (!(typeof ms === 'number' && ms >= 0 && ms <= MAX_LATENCY_PART_MS)) issue(`${field}.${key}`, ms === undefined ? 'missing_field' : 'invalid_number', `${shown(ms)} is not a number of milliseconds from 0 to ${MAX_LATENCY_PART_TEXT}`, 'give 0 for none');
  }
}

/** A boolean switch. */
export function booleanIssue(issue: Issue, field: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') issue(field, 'invalid_value', `${shown(value)} is not true or false`, 'leave it out for false');
}

