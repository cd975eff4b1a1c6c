/**
 * What changed in a scenario's synthetic agents since the baseline: the baseline stores the scenario file's
 * fields that make them (pairedAgents.ts `agents.scenario`: sizes, population, hard cap, as parsed), and the
 * check has its own; each field that differs, by its path, `population[2] perfectionist weight 2 → 10` (an
 * entry named by its name, else its behaviour; entries paired by those names wherever they sit, so one
 * inserted, removed or moved shifts no other's fields, and a new order is one change). The text names a few (AGENT_CHANGES_SHOWN) and how many more;
 * the change's `baseline` and `now` list every one (JSON `drift.changes`). One of the changes settingChanges.ts
 * names, so the report's and JUnit's `changed since the baseline` say it alike. Pure.
 */
import { fieldPath } from '../fieldPath.js';
import type { StoredAgents } from './pairedAgents.js';
import type { SettingChange } from './settingChanges.js';

/** The setting a change of the agents is named under. */
export const AGENTS_SETTING = 'scenario file';

/** How many changed fields the text names before `and N more`. */
export const AGENT_CHANGES_SHOWN = 3;

/**
 * One field that differs: its path (as keys and indices, now's place), its value in the baseline and now (undefined: absent);
 * in a population entry, the entry as the text names it (`population[2] perfectionist`, or `population order`),
 * and its path in the baseline when the entry sat elsewhere there.
 */
interface FieldChange {
  path: readonly (string | number)[];
  before: unknown;
  now: unknown;
  entry?: string;
  beforePath?: readonly (string | number)[];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isRecord = (value: unknown): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every field that differs between two JSON values, in the baseline's order of keys (keys only now after); a population's entries paired by name (populationChanges). */
function fieldChanges(before: Json | undefined, now: Json | undefined, path: (string | number)[], into: FieldChange[]): void {
  if (JSON.stringify(before) === JSON.stringify(now)) return;
  if (isRecord(before) && isRecord(now)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(now)])];
    for (const key of keys) fieldChanges(before[key], now[key], [...path, key], into);
    return;
  }
  if (Array.isArray(before) && Array.isArray(now) && path.length === 1 && path[0] === 'population') return populationChanges(before, now, into);
  // Any other list compared place by place; a place only one side has is added or removed whole.
  if (Array.isArray(before) && Array.isArray(now)) {
    for (let i = 0; i < Math.max(before.length, now.length); i++) fieldChanges(before[i], now[i], [...path, i], into);
    return;
  }
  into.push({ path, before, now });
}

/** A value as the text writes it: `2`, `lognormal`, `{ kind: lognormal, median: 7 }`, `none` when absent. */
function valueText(value: unknown): string {
  if (value === undefined) return 'none';
  if (Array.isArray(value)) return `[${value.map(valueText).join(', ')}]`;
  if (isRecord(value)) return `{ ${Object.entries(value).map(([key, v]) => `${key}: ${valueText(v)}`).join(', ')} }`;
  return String(value);
}

/** A population entry's name in the text: its `name`, else its behaviour. */
function entryName(entry: unknown): string {
  return isRecord(entry) ? String(entry.name ?? entry.behaviour ?? '') : '';
}

/**
 * A population's entries paired: by a name (else behaviour) each side gives one entry, wherever it sits; the
 * rest by name in order (a longest common subsequence). An entry inserted, removed or moved shifts no other
 * entry's fields. [baseline index, now index]; one side undefined: the entry only the other side has.
 */
function pairedEntries(before: readonly Json[], now: readonly Json[]): [number | undefined, number | undefined][] {
  const count = (list: readonly Json[], name: string) => list.filter((entry) => entryName(entry) === name).length;
  const unique = (i: number) => count(before, entryName(before[i])) === 1 && count(now, entryName(before[i])) === 1;
  const pairs: [number | undefined, number | undefined][] = before.flatMap((entry, i) => (unique(i) ? [[i, now.findIndex((e) => entryName(e) === entryName(entry))] as [number, number]] : []));
  const rest = (list: readonly Json[], side: 0 | 1) => list.flatMap((_, k) => (pairs.some((pair) => pair[side] === k) ? [] : [k]));
  const [b, n] = [rest(before, 0), rest(now, 1)];
  const same = (x: number, y: number) => entryName(before[b[x]!]) === entryName(now[n[y]!]);
  const common = Array.from({ length: b.length + 1 }, () => new Array<number>(n.length + 1).fill(0));
  for (let x = b.length - 1; x >= 0; x--) for (let y = n.length - 1; y >= 0; y--) common[x]![y] = same(x, y) ? common[x + 1]![y + 1]! + 1 : Math.max(common[x + 1]![y]!, common[x]![y + 1]!);
  let [x, y] = [0, 0];
  while (x < b.length || y < n.length) {
    if (x < b.length && y < n.length && same(x, y)) pairs.push([b[x++], n[y++]]);
    else if (y >= n.length || (x < b.length && common[x + 1]![y]! >= common[x]![y + 1]!)) pairs.push([b[x++], undefined]);
    else pairs.push([undefined, n[y++]]);
  }
  return pairs;
}

/**
 * The changes of a population's entries, paired (pairedEntries): each pair's fields (named at its place now,
 * and in the baseline when it sat elsewhere), entries added and removed, then one change when the paired
 * entries stand in another order (the draws pick entries in file order).
 */
function populationChanges(before: readonly Json[], now: readonly Json[], into: FieldChange[]): void {
  const pairs = pairedEntries(before, now);
  const edited: FieldChange[] = [];
  const whole: FieldChange[] = [];
  for (const [i, j] of pairs) {
    const at = j ?? i!;
    const entry = `population[${at}] ${entryName(j === undefined ? before[i!] : now[j])}`;
    const inner: FieldChange[] = [];
    fieldChanges(i === undefined ? undefined : before[i], j === undefined ? undefined : now[j], ['population', at], inner);
    for (const change of inner) (i === undefined || j === undefined ? whole : edited).push({ ...change, entry, ...(i !== undefined && i !== at ? { beforePath: ['population', i, ...change.path.slice(2)] } : {}) });
  }
  into.push(...edited, ...whole);
  const kept = pairs.filter((pair): pair is [number, number] => pair[0] !== undefined && pair[1] !== undefined);
  const wasOrder = [...kept].sort((p, q) => p[0] - q[0]).map(([i]) => entryName(before[i]));
  const isOrder = [...kept].sort((p, q) => p[1] - q[1]).map(([, j]) => entryName(now[j]));
  if (wasOrder.join('\u0000') !== isOrder.join('\u0000')) into.push({ path: ['population'], before: wasOrder, now: isOrder, entry: 'population order' });
}

/** `population[2] perfectionist weight 2 → 10`, `population[9] sloppy added`, `population order [a, b] → [b, a]`, `goalTokens.median 300 → 400`. */
function changeText(change: FieldChange): string {
  if (change.entry === undefined || change.path.length === 1) return `${change.entry ?? fieldPath(change.path)} ${valueText(change.before)} → ${valueText(change.now)}`;
  const rest = change.path.slice(2);
  if (rest.length === 0) return `${change.entry} ${change.now === undefined ? 'removed' : change.before === undefined ? 'added' : `${valueText(change.before)} → ${valueText(change.now)}`}`;
  return `${change.entry} ${fieldPath(rest)} ${valueText(change.before)} → ${valueText(change.now)}`;
}

/** `a, b, c and 4 more`: the first `shown` of the texts, and how many are left out. */
function fewText(texts: readonly string[], shown: number): string {
  const left = texts.length - shown;
  return left <= 0 ? texts.join(', ') : `${texts.slice(0, shown).join(', ')} and ${left} more`;
}

/**
 * The change of a scenario's agents since the baseline (none when either side holds none: a baseline written
 * before it stored them, or no synthetic runs); `except`: top-level fields another change already names.
 */
export function agentChanges(before: StoredAgents | undefined, now: StoredAgents | undefined, except: readonly string[] = []): SettingChange[] {
  if (before === undefined || now === undefined) return [];
  const [was, is] = [before.scenario, now.scenario].map((scenario) => JSON.parse(JSON.stringify(scenario)) as Record<string, Json>) as [Record<string, Json>, Record<string, Json>];
  const changes: FieldChange[] = [];
  fieldChanges(was, is, [], changes);
  const named = changes.filter((change) => !except.includes(String(change.path[0])));
  if (named.length === 0) return [];
  const baseline = named.map((change) => `${fieldPath(change.beforePath ?? change.path)}: ${valueText(change.before)}`).join('; ');
  const nowText = named.map((change) => `${fieldPath(change.path)}: ${valueText(change.now)}`).join('; ');
  return [{ setting: AGENTS_SETTING, baseline, now: nowText, change: fewText(named.map(changeText), AGENT_CHANGES_SHOWN) }];
}
