/**
 * What changed in a scenario's synthetic agents since the baseline: the baseline stores the scenario file's
 * fields that make them (pairedAgents.ts `agents.scenario`: sizes, population, hard cap, as parsed), and the
 * check has its own; each field that differs, by its path, `population[2] perfectionist weight 2 → 10` (an
 * entry named by its name, else its behaviour). The text names a few (AGENT_CHANGES_SHOWN) and how many more;
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

/** One field that differs: its path (as keys and indices), its value in the baseline and now (undefined: absent). */
interface FieldChange {
  path: readonly (string | number)[];
  before: unknown;
  now: unknown;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isRecord = (value: unknown): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every field that differs between two JSON values, in the baseline's order of keys (keys only now after). */
function fieldChanges(before: Json | undefined, now: Json | undefined, path: (string | number)[], into: FieldChange[]): void {
  if (JSON.stringify(before) === JSON.stringify(now)) return;
  if (isRecord(before) && isRecord(now)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(now)])];
    for (const key of keys) fieldChanges(before[key], now[key], [...path, key], into);
    return;
  }
  // A population's entries (and any list) compared place by place; one only one side has is added or removed whole.
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

/** `population[2] perfectionist weight 2 → 10`, `population[9] sloppy added`, `goalTokens.median 300 → 400`. */
function changeText(change: FieldChange, agents: { before: Json[]; now: Json[] }): string {
  const [first, index, ...rest] = change.path;
  if (first !== 'population' || typeof index !== 'number') return `${fieldPath(change.path)} ${valueText(change.before)} → ${valueText(change.now)}`;
  const entry = `population[${index}] ${entryName(agents.now[index] ?? agents.before[index])}`;
  if (rest.length === 0) return `${entry} ${change.now === undefined ? 'removed' : change.before === undefined ? 'added' : `${valueText(change.before)} → ${valueText(change.now)}`}`;
  return `${entry} ${fieldPath(rest)} ${valueText(change.before)} → ${valueText(change.now)}`;
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
  const population = { before: Array.isArray(was.population) ? was.population : [], now: Array.isArray(is.population) ? is.population : [] };
  const side = (pick: (change: FieldChange) => unknown) => named.map((change) => `${fieldPath(change.path)}: ${valueText(pick(change))}`).join('; ');
  return [{ setting: AGENTS_SETTING, baseline: side((change) => change.before), now: side((change) => change.now), change: fewText(named.map((change) => changeText(change, population)), AGENT_CHANGES_SHOWN) }];
}
