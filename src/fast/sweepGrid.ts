/**
 * A sweep's grid: base settings, and axes whose values patch them; the cells are every combination
 * (the first axis varies slowest, the last fastest). A pass serves a group of cells only if it stops no
 * earlier than any of them: passLimits is the loosest setting of each brake over the group.
 */
import { maxOutputTokensSent, type BrakeConfig } from '../brakes/config.js';
import type { ContextStrategy } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import { maxOf, minOf } from '../metrics/extremes.js';

/** One value of an axis: what it changes in the base settings. */
export interface SweepPatch {
  brakes?: Partial<BrakeConfig>;
  strategy?: Partial<ContextStrategy>;
}

export interface SweepAxis {
  name: string;
  values: readonly SweepPatch[];
}

export interface SweepGrid {
  brakes: BrakeConfig;
  /** Strategy (and cache mode: unset, each trace's default — recorded or off). */
  strategy: ContextStrategy;
  latency?: LatencyModel;
  axes: readonly SweepAxis[];
}

/** One cell: its full settings, and the index of its value on each axis. */
export interface SweepCell {
  brakes: BrakeConfig;
  strategy: ContextStrategy;
  at: number[];
}

/**
 * `base` with `patch` on top. Settings are never changed once made, so cells share them: `base` itself
 * without a patch, the patch itself when it sets every key of `base` (a sweep's configurations, whole
 * brakes and strategies on empty defaults: one object per distinct setting, not one per cell).
 */
function patched<T extends object>(base: T, patch: Partial<T> | undefined): T {
  if (patch === undefined) return base;
  for (const key in base) if (!Object.hasOwn(patch, key)) return { ...base, ...patch };
  return patch as T;
}

export function sweepCells(grid: SweepGrid): SweepCell[] {
  let cells: SweepCell[] = [{ brakes: grid.brakes, strategy: grid.strategy, at: [] }];
  for (const axis of grid.axes) {
    cells = cells.flatMap((cell) =>
      axis.values.map((patch, v) => ({
        brakes: patched(cell.brakes, patch.brakes),
        strategy: patched(cell.strategy, patch.strategy),
        at: [...cell.at, v],
      })),
    );
  }
  return cells;
}

/**
 * Ids of settings objects by their key (equal keys, one id), each object's key made once: a grid's cells
 * share their brakes and strategy objects (sweepCells; a sweep's configurations, population/grid.ts), so a
 * grid of 10^5 cells makes a key per distinct setting, not several per cell.
 */
export class SettingIds<T extends object> {
  private readonly byObject = new Map<T, number>();
  private readonly byKey = new Map<string, number>();
  constructor(private readonly keyOf: (value: T) => string) {}
  id(value: T): number {
    let id = this.byObject.get(value);
    if (id !== undefined) return id;
    const key = this.keyOf(value);
    id = this.byKey.get(key);
    if (id === undefined) this.byKey.set(key, (id = this.byKey.size));
    this.byObject.set(value, id);
    return id;
  }
}

type NumericLimit = 'maxSteps' | 'maxCostPico' | 'timeoutMs' | 'maxRepeat' | 'maxSameError' | 'maxTokens' | 'maxBacktracks';

/** The largest of a limit over the cells, or undefined (off) when one cell has it off. */
function loosest(all: BrakeConfig[], key: NumericLimit): number | undefined {
  let max = -Infinity;
  for (const b of all) {
    const v = b[key];
    if (v === undefined) return undefined;
    if (v > max) max = v;
  }
  return max;
}

function same<T>(all: BrakeConfig[], get: (b: BrakeConfig) => T): boolean {
  return all.every((b) => get(b) === get(all[0]!));
}

/**
 * Brakes no cell of the group stops later than: each limit at its loosest; a brake whose mode differs
 * between cells is off; the predictive bound, and under `contextWindow: 'model'` the window, at the
 * smallest max_tokens (the loosest bound, the largest prompt allowed).
 */
export function passLimits(all: BrakeConfig[]): BrakeConfig {
  const first = all[0]!;
  const pass: BrakeConfig = { budgetMode: first.budgetMode, repeatMode: first.repeatMode, sameErrorMode: first.sameErrorMode };
  const set = (key: NumericLimit, value: number | undefined) => {
    if (value !== undefined) pass[key] = value;
  };
  set('maxSteps', loosest(all, 'maxSteps'));
  set('timeoutMs', loosest(all, 'timeoutMs'));
  set('maxTokens', loosest(all, 'maxTokens'));
  set('maxBacktracks', loosest(all, 'maxBacktracks'));
  if (same(all, (b) => b.budgetMode)) set('maxCostPico', loosest(all, 'maxCostPico'));
  // max_tokens only loosens a brake as it shrinks (the bound, the prompt a model's window allows).
  pass.maxOutputTokens = minOf(all.map((b) => maxOutputTokensSent(b)));
  if (same(all, (b) => b.repeatMode)) set('maxRepeat', loosest(all, 'maxRepeat'));
  if (same(all, (b) => b.sameErrorMode)) set('maxSameError', loosest(all, 'maxSameError'));
  if (all.every((b) => b.contextWindow === 'model')) pass.contextWindow = 'model';
  else if (all.every((b) => typeof b.contextWindow === 'number')) pass.contextWindow = maxOf(all.map((b) => b.contextWindow as number));
  return pass;
}
