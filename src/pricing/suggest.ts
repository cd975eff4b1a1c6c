import { UserError } from '../errors.js';
import { shownName } from '../shownName.js';
import { COMMAND_LINE_PRICE_OPTIONS, type PriceOptionNames } from './optionNames.js';

/**
 * Edit distance with adjacent transpositions (optimal string alignment): `gtp-4o` is 1 from `gpt-4o`.
 * With `max`, the search stops as soon as the distance is known to exceed it and returns max + 1: names
 * whose lengths differ by more cost nothing, and only the diagonal band of width 2·max + 1 is filled
 * (O(max · length), not O(length²): a 100,000-character name against a table of names stays instant).
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length === 0 || b.length === 0) return a.length + b.length;
  const far = max + 1;
  const band = Math.min(max, Math.max(a.length, b.length));
  let before = new Array<number>(b.length + 1).fill(far);
  let prev = new Array<number>(b.length + 1).fill(far);
  let curr = new Array<number>(b.length + 1).fill(far);
  for (let j = 0; j <= Math.min(b.length, band); j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - band);
    const to = Math.min(b.length, i + band);
    curr[from - 1] = from === 1 ? i : far;
    if (to < b.length) curr[to + 1] = far;
    const ca = a.charCodeAt(i - 1);
    let rowBest = curr[from - 1]!;
    for (let j = from; j <= to; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j]! + 1, curr[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) d = Math.min(d, before[j - 2]! + 1);
      curr[j] = d;
      if (d < rowBest) rowBest = d;
    }
    if (rowBest > max) return far;
    [before, prev, curr] = [prev, curr, before];
  }
  return Math.min(prev[b.length]!, far);
}

/** Names longer than this get no suggestions: no known name is near them, and comparing would only cost time. */
export const MAX_SUGGESTED_LENGTH = 200;


/** The most edits a name of `length` characters may be from a known one to be suggested for it. */
export function nearEdits(length: number): number {
  return Math.max(2, Math.floor(length / 4));
}

/** Lower case, punctuation dropped: `GPT_4o` and `gpt-4o` both become `gpt4o`. */
function squash(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** `openai/gpt-4o` → `gpt-4o`, `anthropic:claude-x` → `claude-x`; otherwise the name itself. */
function withoutPrefix(name: string): string {
  const slash = name.lastIndexOf('/');
  if (slash >= 0) return name.slice(slash + 1);
  const colon = name.indexOf(':');
  return colon > 0 ? name.slice(colon + 1) : name;
}

/** How near a known name is to a query (lower is nearer; Infinity: not near): see suggestNames. */
function nameScore(query: { lq: string; sq: string }, candidate: string, penalty: number): number {
  const { lq, sq } = query;
  const lc = candidate.toLowerCase();
  const sc = squash(candidate);
  const extra = Math.abs(lc.length - lq.length) + penalty;
  if (sq.length > 0 && sc === sq) return extra / 1000;
  if (sq.length >= 2 && sc.startsWith(sq)) return 1 + extra / 1000;
  if (sq.length >= 3 && sc.includes(sq)) return 2 + extra / 1000;
  const limit = nearEdits(lq.length);
  const d = editDistance(lq, lc, limit);
  return d <= limit ? 3 + d + extra / 1000 : Infinity;
}

/**
 * Up to `limit` known names closest to `query`: same name up to case/punctuation first, then names that
 * start with or contain it (shortest first), then names within a small edit distance; one per model
 * name after stripping a provider prefix. Deterministic. None for a query longer than MAX_SUGGESTED_LENGTH.
 */
export function suggestNames(query: string, names: Iterable<string>, limit = 3): string[] {
  if (query.length > MAX_SUGGESTED_LENGTH) return [];
  const queries = [...new Set([query, withoutPrefix(query)])].filter((q) => q.length > 0).map((q) => ({ lq: q.toLowerCase(), sq: squash(q) }));
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of new Set(names)) {
    let best = Infinity;
    for (const { lq, sq } of queries) {
      for (const candidate of new Set([name, withoutPrefix(name)])) {
        const score = nameScore({ lq, sq }, candidate, candidate === name ? 0 : 0.5);
        if (score < best) best = score;
      }
    }
    if (best < Infinity) scored.push({ name, score: best });
  }
  scored.sort((a, b) => a.score - b.score || a.name.length - b.name.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // One suggestion per model: `openai/gpt-4o` and `ft:gpt-4o` add nothing after `gpt-4o`.
  const seen = new Set<string>();
  const out: string[] = [];
  for (const { name } of scored) {
    const key = withoutPrefix(name).toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(name);
    if (out.length >= limit) break;
  }
  return out;
}

export interface UnknownModelContext {
  /** Price file the model was looked up in (omit for the bundled table). */
  file?: string;
  /**
   * Whose vocabulary the ways out are said in: the options the table was loaded with (loadPriceTable's own,
   * PRICE_TABLE_OPTIONS, for a library caller; the CLI's flags, COMMAND_LINE_PRICE_OPTIONS, the default here).
   */
  optionNames?: PriceOptionNames;
  /**
   * Providers whose own model rules take the name when a run names them (a Bedrock id such as
   * `us.anthropic.claude-…`): the hint says to name the provider rather than suggest other models.
   */
  pricedWithProvider?: ReadonlyArray<{ word: string; name: string }>;
}

/** The ways out of an unknown model, in the words of whoever loaded the table (`names`). */
function unknownModelHint(file: string | undefined, names: PriceOptionNames): string {
  if (names.file === COMMAND_LINE_PRICE_OPTIONS.file) {
    return file === undefined
      ? `Run 'loopcost prices' to list models, pass ${names.pricesFile} FILE, or write a price file for it with 'loopcost prices derive'`
      : `Run 'loopcost prices ${names.pricesFile} ${file}' to list its models, or add an entry for the model to that file`;
  }
  return file === undefined
    ? `The table's modelNames() lists the models it prices; for another, give ${names.pricesFile} (a LiteLLM price file) or ${names.overridesFile} (an entry for the model) in ${names.file}`
    : `The table's modelNames() lists its models; or add an entry for the model to that file`;
}

/** The UserError for a model no table row matches, with near-name suggestions in the hint. */
export function unknownModelError(model: string, names: Iterable<string>, context: UnknownModelContext = {}): UserError {
  const withProvider = context.pricedWithProvider ?? [];
  const suggestions = withProvider.length > 0 ? [] : suggestNames(model, names);
  const didYouMean = withProvider.length > 0 ? `${providerWords(model, withProvider)}; ` : suggestions.length > 0 ? `did you mean ${suggestions.join(', ')}? ` : '';
  return new UserError({
    ...(context.file !== undefined ? { file: context.file } : {}),
    field: 'model',
    code: 'unknown_model',
    message: `unknown model '${shownName(model)}'`,
    hint: `${didYouMean}${unknownModelHint(context.file, context.optionNames ?? COMMAND_LINE_PRICE_OPTIONS)}`,
  });
}

/** `it is a model id of AWS Bedrock: name its provider, "provider": "bedrock" in the run's header (or the model as bedrock/…)`. */
function providerWords(model: string, providers: ReadonlyArray<{ word: string; name: string }>): string {
  const [first] = providers;
  const names = providers.map((p) => `${p.name} ("provider": "${p.word}")`).join(', or ');
  return `it is a model id of ${names}, read only for a run that names its provider: add "provider": "${first!.word}" to the run's header (a native trace's header line; the library's resolve(model, '${first!.word}')), or write the model as ${first!.word}/${shownName(model)}`;
}
