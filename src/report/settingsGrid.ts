/**
 * A sweep's (a calibration's) settings line under a grid: each setting a grid axis gives named as the axis
 * (`max-steps=grid (5, 10)`, `context grid (full, window:4)`), never as the flag's default or a scenario
 * file's value the axis replaced; and the brake modes every configuration shares beside a brake axis. The
 * settings are made in settings.ts (reportSettings, given `grid`); this is what the grid changes of them.
 */
import { BRAKE_GRID_KEYS } from '../population/grid.js';
import type { FlagPart, ReportSettings } from './settings.js';

/** A grid axis as the settings name it: the key (a flag's name without `--`) and its values, in the order given. */
export interface SettingsAxis {
  key: string;
  values: readonly string[];
}

/** `grid (3, 5)`: the values a grid axis gives its setting, in the order given; one value alone is that value, which every configuration shares. */
export function gridValuesText(values: readonly string[]): string {
  return values.length === 1 ? values[0]! : `grid (${values.join(', ')})`;
}

/** Each brake mode and the brake it governs. */
const MODE_BRAKES: readonly (readonly [mode: string, brake: string])[] = [
  ['budget-mode', 'max-cost'],
  ['repeat-mode', 'max-repeat'],
  ['repeat-action', 'max-repeat'],
  ['same-error-mode', 'max-same-error'],
];

/**
 * The brakes of a grid's configurations: each brake axis first, in the grid's order, as the axis
 * (`max-steps=grid (5, 10)`, `preset=grid (reference, crewai)`); then what every configuration shares of the
 * brakes (the flags given, or a scenario file's own under them): their `parts` but those the grid's keys give,
 * and each of their `modes` set without its brake (settings.ts modeParts) whose brake a grid key gives
 * (`repeat-mode=consecutive` beside a `max-repeat` axis, or a `preset` one): the parts write a mode only
 * beside its brake, so the line would not say it, though it made every row.
 */
export function gridBrakeParts(brakes: { parts: readonly FlagPart[]; modes: readonly FlagPart[] }, axes: readonly SettingsAxis[]): FlagPart[] {
  const grid = new Set(axes.map((axis) => axis.key));
  const axisParts = axes.filter((axis) => axis.key in BRAKE_GRID_KEYS).map((axis): FlagPart => [axis.key, gridValuesText(axis.values)]);
  const parts = brakes.parts.filter(([name]) => !grid.has(name));
  const byGrid = brakes.modes.filter(([mode]) => !grid.has(mode) && MODE_BRAKES.some(([m, brake]) => m === mode && (grid.has(brake) || grid.has('preset'))));
  return [...axisParts, ...parts, ...byGrid];
}

/** The settings a grid axis gives besides the brakes (gridBrakeParts), each as its field of ReportSettings. */
const GRID_SETTINGS: Readonly<Record<string, 'context' | 'toolResultCap' | 'cache' | 'model'>> = { context: 'context', 'tool-result-cap': 'toolResultCap', cache: 'cache', model: 'model' };

/** `settings` with each context, tool-result-cap, cache and model axis of `grid` named as the axis (`context grid (full, window:4)`): every run of a configuration takes its value, a scenario file's own included. */
export function withGridAxes(settings: ReportSettings, grid: readonly SettingsAxis[] | undefined): ReportSettings {
  if (grid === undefined || !grid.some((axis) => axis.key in GRID_SETTINGS)) return settings;
  const named: Partial<ReportSettings> = {};
  const axisOf = (field: keyof ReportSettings) => grid.find((axis) => GRID_SETTINGS[axis.key] === field);
  // The fields in their own order (the JSON's), an axis's value in place of the one it replaced.
  for (const field of ['brakes', 'context', 'toolResultCap', 'cache', 'latency', 'model'] as const) {
    const axis = axisOf(field);
    const value = axis === undefined ? settings[field] : gridValuesText(axis.values);
    if (value !== undefined) named[field] = value;
  }
  return named as ReportSettings;
}
