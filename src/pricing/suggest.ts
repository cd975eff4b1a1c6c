import { UserError } from '../errors.js';

/** Edit distance with adjacent transpositions (optimal string alignment): `gtp-4o` is 1 from `gpt-4o`. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let before = new Array<number>(b.length + 1).fill(0);
  let prev = new Array<number>(b.length + 1);
  let curr = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    curr[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j]! + 1, curr[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) d = Math.min(d, before[j - 2]! + 1);
      curr[j] = d;
    }
    [before, prev, curr] = [prev, curr, before];
  }
  return prev[b.length]!;
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

/**
 * Up to `limit` known names closest to `query`: same name up to case/punctuation first, then names that
 * start with or contain it (shortest first), then names within a small edit distance; one per model
 * name after stripping a provider prefix. Deterministic.
 */
export function suggestNames(query: string, names: Iterable<string>, limit = 3): string[] {
  const queries = [...new Set([query, withoutPrefix(query)])].filter((q) => q.length > 0);
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of new Set(names)) {
    let best = Infinity;
    for (const q of queries) {
      const lq = q.toLowerCase();
      const sq = squash(q);
      for (const candidate of new Set([name, withoutPrefix(name)])) {
        const lc = candidate.toLowerCase();
        const sc = squash(candidate);
        const extra = Math.abs(lc.length - lq.length) + (candidate === name ? 0 : 0.5);
        let score = Infinity;
        if (sq.length > 0 && sc === sq) score = extra / 1000;
        else if (sq.length >= 2 && sc.startsWith(sq)) score = 1 + extra / 1000;
        else if (sq.length >= 3 && sc.includes(sq)) score = 2 + extra / 1000;
        else {
          const d = editDistance(lq, lc);
          if (d <= Math.max(2, Math.floor(lq.length / 4))) score = 3 + d + extra / 1000;
        }
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
}

/** The UserError for a model no table row matches, with near-name suggestions in the hint. */
export function unknownModelError(model: string, names: Iterable<string>, context: UnknownModelContext = {}): UserError {
  const suggestions = suggestNames(model, names);
  const didYouMean = suggestions.length > 0 ? `did you mean ${suggestions.join(', ')}? ` : '';
  return new UserError({
    ...(context.file !== undefined ? { file: context.file } : {}),
    field: 'model',
    code: 'unknown_model',
    message: `unknown model '${model}'`,
    hint:
      context.file === undefined
        ? `${didYouMean}Run 'loopcost prices' to list models, pass --prices FILE, or write a price file for it with 'loopcost prices derive'`
        : `${didYouMean}Run 'loopcost prices --prices ${context.file}' to list its models, or add an entry for the model to that file`,
  });
}
