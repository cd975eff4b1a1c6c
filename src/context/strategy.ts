/**
 * Context strategies decide what the next prompt holds. The model of a prompt is
 *   system + goal + the kept steps, each step = the model's output + its tool results,
 * in order. `full` keeps every step; `window` keeps the last K (a tool call stays with its result
 * because they are one step); a tool-result cap truncates each result to T tokens as it enters the
 * context, so it never rewrites what an earlier prompt already held.
 *
 * `mask` (observation masking, SWE-agent) keeps every output but replaces each tool result of the
 * steps older than the last M with a placeholder of P tokens (with `batch=B`, in batches of B steps, so the
 * prompt changes only every B steps: kernel/maskBoundary.ts). `summary` (compaction: OpenHands
 * condensers, Claude Code auto-compact, LangChain SummarizationMiddleware) makes a paid summary call
 * when the prompt passes a trigger: system + goal stay, the steps before the last K are replaced by a
 * summary of S tokens. `hybrid` masks first and summarises when even the masked prompt passes the
 * trigger. The prompt arithmetic lives in src/kernel/context.ts; this file names and parses them.
 */
import { UserError } from '../errors.js';
import { repeatWords } from '../firstRepeat.js';
import { decimalNumber, readsAsZeroOnly } from '../io/numberText.js';
import { describeValue } from '../import/common/jsonValue.js';
import { nearestField } from '../import/common/nearestName.js';
import { keyValueSpec, nearGuess, type KeyValueFault } from '../keyValueSpec.js';

export type CacheMode = 'on' | 'off' | 'recorded';

export type StrategyKind = 'full' | 'window' | 'mask' | 'summary' | 'hybrid';

/** When and how a summary rewrites the prompt. */
export interface SummarySpec {
  /** The prompt passes this many tokens… */
  triggerTokens?: number;
  /** …or this percentage of the context window (one of the two). */
  triggerPercent?: number;
  /** Steps kept after the summary. */
  keepSteps: number;
  /** Tokens of the summary (the summary call's output, then part of every later prompt). */
  summaryTokens: number;
  /** The model the summary call is priced as (default: the run's model). */
  model?: string;
}

export interface ContextStrategy {
  kind: StrategyKind;
  /** Steps kept by `window`. */
  windowSteps?: number;
  /** `mask`/`hybrid`: tool results of the last M steps are kept; older ones become placeholders. */
  maskSteps?: number;
  /** `mask`/`hybrid` `batch=B`: the masking boundary moves only at multiples of B steps (unset: 1, every step; kernel/maskBoundary.ts). */
  maskBatchSteps?: number;
  /** Tokens of a masked tool result's placeholder (default DEFAULT_PLACEHOLDER_TOKENS). */
  placeholderTokens?: number;
  /** `summary`/`hybrid`. */
  summary?: SummarySpec;
  /** Tokens a single tool result may add; larger results are truncated. */
  toolResultCap?: number;
  /** `recorded`: use the trace's cache figures (adjusted where the strategy changes the prefix). */
  cache?: CacheMode;
}

export const FULL_HISTORY: Readonly<ContextStrategy> = Object.freeze({ kind: 'full' });

/** SWE-agent's "Old environment output: (N lines omitted)" is about this long. */
export const DEFAULT_PLACEHOLDER_TOKENS = 12;

/** True when the strategy leaves a recorded prompt exactly as it was sent. */
export function isIdentity(strategy: ContextStrategy): boolean {
  return strategy.kind === 'full' && strategy.toolResultCap === undefined;
}

/** Strategies that rewrite older steps (masking, summaries): the compiled replay runs them call by call. */
export function rewritesHistory(strategy: ContextStrategy): boolean {
  return strategy.kind === 'mask' || strategy.kind === 'summary' || strategy.kind === 'hybrid';
}

/** The strategy in `--context` syntax (without the cap and cache, which have their own flags). */
export function contextSpecOf(strategy: ContextStrategy): string {
  if (strategy.kind === 'window') return `window:${strategy.windowSteps}`;
  if (strategy.kind === 'full') return 'full';
  const parts: string[] = [];
  if (strategy.kind !== 'summary') parts.push(strategy.kind === 'mask' ? `${strategy.maskSteps}` : `mask=${strategy.maskSteps}`);
  if (strategy.placeholderTokens !== undefined) parts.push(`placeholder=${strategy.placeholderTokens}`);
  if (strategy.maskBatchSteps !== undefined) parts.push(`batch=${strategy.maskBatchSteps}`);
  const s = strategy.summary;
  if (s) {
    parts.push(`trigger=${s.triggerPercent !== undefined ? `${s.triggerPercent}%` : s.triggerTokens}`, `keep=${s.keepSteps}`, `tokens=${s.summaryTokens}`);
    if (s.model !== undefined) parts.push(`model=${s.model}`);
  }
  return `${strategy.kind}:${parts.join(',')}`;
}

const SPEC_HELP = "'full', 'window:K', 'mask:M[,placeholder=P][,batch=B]', 'summary:trigger=T|R%,keep=K,tokens=S[,model=X]' or 'hybrid:mask=M,trigger=T|R%,keep=K,tokens=S[,placeholder=P][,batch=B][,model=X]'";

function specError(place: StrategyPlace, value: string, message: string): UserError {
  return new UserError({ ...place, code: 'bad_value', message: `'${value}': ${message}`, hint: `write ${SPEC_HELP}` });
}

/**
 * Where a spec was written: a place as given (`<X options>` field `context`, a scenario file's line), or a
 * bare string, a flag on the command line (`--context`, `--compare-context`: what the CLI passes).
 */
export type SpecPlace = StrategyPlace | string;

function placeOf(where: SpecPlace): StrategyPlace {
  return typeof where === 'string' ? { file: '<command line>', field: where } : where;
}

/** A spec given to the library's parseContextSpec with no place: its own argument. */
const SPEC_ARGUMENT: StrategyPlace = { file: '<parseContextSpec arguments>', field: 'spec' };

/** What to write for each count of a `--context` value, said when one is refused. */
const COUNT_EXAMPLES: Record<string, string> = {
  K: 'window:5',
  M: 'mask:3',
  mask: 'mask=3',
  placeholder: 'placeholder=12',
  batch: 'batch=10',
  keep: 'keep=3',
  tokens: 'tokens=500',
  trigger: 'trigger=8000 (tokens, 8e3 too) or trigger=80% (of the context window)',
};

/** A count of a `--context` value (`keep=3`, `mask:1e1`): a whole number as every count flag takes one (io/numberText.ts decimalNumber). */
function wholeAbove(place: StrategyPlace, spec: string, key: string, value: string, min: number): number {
  const n = decimalNumber(value);
  if (!Number.isSafeInteger(n) || n < min) throw specError(place, spec, `${key} must be a whole number${min > 0 ? ' greater than 0' : ', 0 or more'} (got '${value}'; e.g. ${COUNT_EXAMPLES[key] ?? `${key}=3`})`);
  return n;
}

type RewritingKind = 'mask' | 'summary' | 'hybrid';

/** The keys each kind takes after its `:` (`mask:` takes its M bare, as its first part, or as mask=M). */
const KEYS: Record<RewritingKind, readonly string[]> = {
  mask: ['placeholder', 'batch'],
  summary: ['trigger', 'keep', 'tokens', 'model'],
  hybrid: ['mask', 'placeholder', 'batch', 'trigger', 'keep', 'tokens', 'model'],
};

/** A bad `key=value` part of a `kind:` body, said as --context says it (its whole syntax in the hint). */
function partRefusal(place: StrategyPlace, spec: string, kind: RewritingKind): (fault: KeyValueFault) => UserError {
  const keys = kind === 'mask' ? ['M', ...KEYS.mask] : KEYS[kind];
  return (fault) => {
    if (fault.kind === 'empty') return specError(place, spec, `has an empty ${kind} setting (an empty value or a doubled comma)`);
    if (fault.kind === 'twice') return specError(place, spec, `${fault.name} is given twice`);
    if (fault.kind === 'unknown') return specError(place, spec, `unknown key '${fault.part}' for ${kind}, whose keys are ${keys.join(', ')}${nearGuess(fault.name, keys)}`);
    return specError(place, spec, fault.value?.includes('=') ? `'${fault.part}' has more than one '='` : `${fault.name} has no value`);
  };
}

/** `key=value` parts (keyValueSpec); the first part of `mask:` may be the bare M. Unknown, repeated or empty keys are named. */
function bodyParts(place: StrategyPlace, spec: string, kind: RewritingKind, body: string): Map<string, string> {
  const names = Object.fromEntries([...(kind === 'mask' ? ['mask'] : []), ...KEYS[kind]].map((key) => [key, key]));
  return new Map(keyValueSpec(body, { flag: place.field, names, ...(kind === 'mask' ? { bare: 'mask' } : {}), refusal: partRefusal(place, spec, kind) }));
}

function summaryOf(place: StrategyPlace, spec: string, parts: Map<string, string>): SummarySpec {
  for (const key of ['trigger', 'keep', 'tokens']) if (!parts.has(key)) throw specError(place, spec, `${key} is missing`);
  const trigger = parts.get('trigger')!;
  const summary: SummarySpec = { keepSteps: wholeAbove(place, spec, 'keep', parts.get('keep')!, 1), summaryTokens: wholeAbove(place, spec, 'tokens', parts.get('tokens')!, 1) };
  if (trigger.trim().endsWith('%')) summary.triggerPercent = triggerPercentOf(place, spec, trigger);
  else summary.triggerTokens = wholeAbove(place, spec, 'trigger', trigger, 1);
  const model = parts.get('model');
  if (model !== undefined) summary.model = model;
  return summary;
}

/**
 * `trigger=R%`: R a number as the share rule reads a percentage (io/numberText.ts: `80%`, `.5%`, `5.%`,
 * `8e1%`), above 0 (one written nonzero that reads as 0, `1e-400%`, is refused as such) and at most 100.
 */
function triggerPercentOf(place: StrategyPlace, spec: string, trigger: string): number {
  const pct = decimalNumber(trigger.trim().slice(0, -1));
  if (readsAsZeroOnly(trigger)) throw specError(place, spec, `trigger must be above 0% and at most 100% of the context window; '${trigger}' reads as 0% in double precision (e.g. trigger=.5%)`);
  if (!(pct > 0 && pct <= 100)) throw specError(place, spec, `trigger must be above 0% and at most 100% of the context window (got '${trigger}'; e.g. trigger=80%, trigger=.5% or trigger=8e1%)`);
  return pct;
}

/** The strategies' kinds, as a spec starts with them. */
const KINDS: readonly StrategyKind[] = ['full', 'window', 'mask', 'summary', 'hybrid'];

/**
 * `: did you mean window:5?` for a kind near one (`windw:5`, `Window:5`, `FULL`: keyValueSpec.ts nearGuess), the
 * rest of the spec as written; `: write window:3 (…)` for a kind that takes a value written with '=' (`window=3`,
 * `mask=10`, `summary=trigger=…`); else nothing. `colon`: where the kind ends (-1: the whole value is one).
 */
function kindGuess(value: string, colon: number): string {
  const equals = value.indexOf('=');
  const valued = equals < 0 || (colon >= 0 && colon < equals) ? undefined : nearestField(value.slice(0, equals), KINDS.filter((kind) => kind !== 'full'));
  if (valued !== undefined) return `: write ${valued}:${value.slice(equals + 1)} (':' after the kind, '=' only within its options)`;
  const typed = colon < 0 ? value : value.slice(0, colon);
  const rest = colon < 0 ? '' : value.slice(colon);
  // `full` takes nothing after it: not guessed for a kind with a body.
  const kinds = rest === '' ? KINDS : KINDS.filter((kind) => kind !== 'full');
  const guess = nearGuess(typed, kinds);
  return guess === '' ? '' : `${guess.slice(0, -1)}${rest}?`;
}

/**
 * Parses a `--context` value; a bad one is a UserError naming `where`: a place (`<X options>` field
 * `context`), or a flag on the command line (`--context`, as the CLI passes it). Default: this function's
 * own `spec` argument (`<parseContextSpec arguments>`), never a flag the caller did not give.
 */
export function parseContextSpec(spec: string, where: SpecPlace = SPEC_ARGUMENT): ContextStrategy {
  const place = placeOf(where);
  if (typeof spec !== 'string') throw new UserError({ ...place, code: spec === undefined ? 'missing_input' : 'invalid_input', message: spec === undefined ? 'is missing: give a context strategy spec (a string)' : `is ${describeValue(spec)}, not a context strategy spec (a string)`, hint: `write ${SPEC_HELP}` });
  const value = spec.trim();
  if (value === 'full') return { kind: 'full' };
  const colon = value.indexOf(':');
  const kind = value.slice(0, colon);
  const body = value.slice(colon + 1);
  if (colon < 0 || !['window', 'mask', 'summary', 'hybrid'].includes(kind)) throw specError(place, spec, `not a context strategy${kindGuess(value, colon)}`);
  if (kind === 'window') return { kind: 'window', windowSteps: wholeAbove(place, spec, 'K', body.trim(), 1) };
  const k = kind as RewritingKind;
  const parts = bodyParts(place, spec, k, body);
  const strategy: ContextStrategy = { kind: k };
  if (k !== 'summary') {
    if (!parts.has('mask')) throw specError(place, spec, k === 'mask' ? 'M (steps whose tool results are kept) is missing' : 'mask is missing');
    strategy.maskSteps = wholeAbove(place, spec, k === 'mask' ? 'M' : 'mask', parts.get('mask')!, 1);
    if (parts.has('batch')) strategy.maskBatchSteps = wholeAbove(place, spec, 'batch', parts.get('batch')!, 1);
    if (parts.has('placeholder')) strategy.placeholderTokens = wholeAbove(place, spec, 'placeholder', parts.get('placeholder')!, 0);
  }
  if (k !== 'mask') strategy.summary = summaryOf(place, spec, parts);
  return strategy;
}

/**
 * A list of strategies separated by ';' (`--compare-context 'full;window:5;mask:10'`), each read by
 * parseContextSpec. One given twice (`window:5;window:5`, or `window:5;window:05`: the same strategy
 * spelled two ways) is refused, as a `--grid context=` value given twice is: it would be a row of its own.
 */
export function parseContextList(list: string, where: SpecPlace): ContextStrategy[] {
  const place = placeOf(where);
  const specs = list.split(';').map((part) => part.trim());
  const strategies = specs.map((part) => parseContextSpec(part, place));
  const repeat = repeatWords(specs, strategies.map(contextSpecOf), 'strategy');
  if (repeat === undefined) return strategies;
  throw new UserError({ ...place, code: 'bad_value', message: `${repeat.same}: each strategy would be a row of its own`, hint: `give each strategy once: ${place.field} '${repeat.once.join(';')}'` });
}

/** Where a context strategy was written, to name it in a complaint about it. */
export interface StrategyPlace {
  file: string;
  line?: number;
  field: string;
}

/** A strategy given to a command with `--context` (the place assumed unless told). */
export const COMMAND_LINE_CONTEXT: Readonly<StrategyPlace> = Object.freeze({ file: '<command line>', field: '--context' });

/**
 * The summary trigger in tokens, checked against the context window (the `--context-window` brake's
 * when set, else the model's): a trigger above it could never fire before the window stops the run.
 * Infinity when the strategy makes no summaries. A trigger that cannot be used is named at `place`.
 */
export function summaryTriggerTokens(strategy: ContextStrategy, contextWindowTokens: number, place: StrategyPlace = COMMAND_LINE_CONTEXT): number {
  const s = strategy.summary;
  if (!s) return Infinity;
  if (s.triggerPercent !== undefined) {
    if (contextWindowTokens === Infinity) {
      throw new UserError({ ...place, code: 'bad_value', message: `trigger=${s.triggerPercent}% needs the model's context window, which the price table does not give`, hint: `give trigger in tokens, or set ${contextWindowWords(place)}` });
    }
    const tokens = percentTokens(s.triggerPercent, contextWindowTokens);
    if (tokens < 1) {
      const smallest = smallestPercent(contextWindowTokens);
      throw new UserError({ ...place, code: 'bad_value', message: `trigger=${s.triggerPercent}% of the context window (${contextWindowTokens} tokens) is 0 tokens: every prompt would pass it`, hint: `the smallest percentage that works on this window is trigger=${smallest}% (1 token); or give trigger in tokens (at least 1)` });
    }
    return tokens;
  }
  if (s.triggerTokens! > contextWindowTokens) {
    throw new UserError({ ...place, code: 'bad_value', message: `trigger=${s.triggerTokens} is above the context window (${contextWindowTokens} tokens): no summary could happen`, hint: 'set trigger below the context window, or as a percentage (trigger=80%)' });
  }
  return s.triggerTokens!;
}

/**
 * The context-window brake as whoever wrote the strategy sets it: an entry point's options (`<replayTrace
 * options>`, optionsFile's form) `brakes.contextWindow`; the command line and a scenario file `--context-window N`.
 */
function contextWindowWords(place: StrategyPlace): string {
  return place.file.startsWith('<') && place.file.endsWith(' options>') ? `brakes.contextWindow in ${place.file}` : '--context-window N';
}

/** R% of a window of `windowTokens`, in whole tokens (the one place a percentage trigger becomes tokens). */
function percentTokens(percent: number, windowTokens: number): number {
  return Math.floor((percent / 100) * windowTokens);
}

/**
 * The smallest percentage that makes at least 1 token of `windowTokens`, written in at most 6
 * significant digits: 100/W when it has a short decimal (0.00078125 for 128,000), else 100/W rounded
 * up in its 6th digit (33.3334 for a 3-token window).
 */
function smallestPercent(windowTokens: number): number {
  const exact = 100 / windowTokens;
  const stepPercent = 10 ** (Math.floor(Math.log10(exact)) - 5);
  let written = Number(exact.toPrecision(6));
  for (let tries = 0; tries < 3 && !(written >= exact && percentTokens(written, windowTokens) >= 1); tries++) {
    written = Number((written + stepPercent).toPrecision(6));
  }
  return written;
}
