/**
 * A price change that moves what the brakes do to the runs. Under a price change every money figure is judged
 * at the baseline's prices (driftFigures.ts): what only the new prices moved in money is no brake regression.
 * But a budget is money too: under dearer prices `max-cost` stops runs it let finish before, and a brake
 * outcome (completionRate, falseStopRate: driftFigures.ts BRAKE_OUTCOMES) the new prices moved past the
 * tolerance is what the deployed loop now does — the budget no longer fits the runs. That fails (status
 * `budget binds`), naming the brake, how many runs it stops at either prices, and what to set it to: the
 * budget times the most a price of these runs' models rose (no call costs more than that many times what it
 * did, so no run reaches the new budget sooner than it reached the old one at the baseline's prices); under
 * cheaper prices, times the least a price fell, to stop where it did. Pure.
 */
import { picoToUsd, picoToUsdString, usdToPico } from '../money.js';
import { pricesForInput } from '../pricing/cost.js';
import type { Drift, DriftRow } from './baseline.js';
import { storedSettings } from './baselineFile.js';
import { checkPercent } from './evaluate.js';
import { acceptText, scenariosNamed } from './gateCounts.js';
import { effectivePrices, rowPricing, type PriceRowChange } from './modelPrices.js';
import type { ScenarioCheck } from './run.js';
import { flagMap } from './settingChanges.js';

/** A scenario whose budget binds differently under the new prices. */
export interface BudgetBinds {
  scenario: string;
  /** The money brake: `max-cost`, or under `--tree` `per-agent limits subagent-max-cost`; absent: none is set. */
  brake?: string;
  /** Its value, as the settings write it (`1`). */
  budget?: string;
  /** The brake outcomes the new prices moved: the baseline's, as measured (the new prices) and at the baseline's prices. */
  figures: { figure: string; baseline: number | null; measured: number | null; atBaselinePrices: number | null }[];
  /** Runs stopped by the budget (stop reason `budget`) at the new prices and at the baseline's, of `runs`. */
  stops: { measured: number; atBaselinePrices: number; runs: number };
  /** The models whose prices changed that these runs were priced at. */
  models: string[];
  /** What to set the budget to so it binds as it did: `raise` under dearer prices, `lower` under cheaper; `toUsd`/`ratio` absent when no price ratio tells (a price from 0). */
  advice?: { way: 'raise' | 'lower'; ratio?: number; toUsd?: number };
}

/**
 * The most and the least any price of these changes moved by (new ÷ baseline), over every kind of token and
 * every prompt size (each tier either row has); `most` Infinity when a price rose from 0.
 */
export function priceRatios(changes: readonly PriceRowChange[]): { most: number; least: number } {
  let most = 0;
  let least = Infinity;
  for (const { baseline, now } of changes) {
    const sizes = [0, ...[...baseline.tiers, ...now.tiers].map((tier) => tier.aboveInputTokens + 1)];
    const [then, today] = [rowPricing(baseline), rowPricing(now)];
    for (const size of sizes) {
      const was = effectivePrices(pricesForInput(then, size));
      const is = effectivePrices(pricesForInput(today, size));
      for (const key of Object.keys(was) as (keyof typeof was)[]) {
        if (was[key] === 0 && is[key] === 0) continue;
        const ratio = was[key] === 0 ? Infinity : is[key] / was[key];
        most = Math.max(most, ratio);
        least = Math.min(least, ratio);
      }
    }
  }
  return { most, least };
}

/** `usd` rounded to 4 significant digits, up (`up`) or down, in whole picodollars: 1.0666… → 1.067. */
function roundUsd(usd: number, up: boolean): number {
  const pico = usd * 1e12;
  const step = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(pico, 1))) - 3);
  return picoToUsd((up ? Math.ceil(pico / step - 1e-9) : Math.floor(pico / step + 1e-9)) * step);
}

/** The money brake of a check's settings and its value: `max-cost`, else under --tree the per-agent one. */
function moneyBrake(check: Pick<ScenarioCheck, 'settings' | 'tree'>): { brake: string; budget: string } | undefined {
  const settings = storedSettings(check);
  const of = (key: string, name: string) => flagMap(settings[key]).get(name);
  const budget = of('brakes', 'max-cost');
  if (budget !== undefined) return { brake: 'max-cost', budget };
  const perAgent = of('subagent', 'subagent-max-cost');
  return perAgent === undefined ? undefined : { brake: 'per-agent limits subagent-max-cost', budget: perAgent };
}

/** What to set the budget to: the way its stops moved (else the prices), times the ratio that keeps it binding as it did. */
function adviceOf(budget: string | undefined, stops: BudgetBinds['stops'], ratios: { most: number; least: number }): BudgetBinds['advice'] {
  const raise = stops.measured !== stops.atBaselinePrices ? stops.measured > stops.atBaselinePrices : ratios.most > 1;
  const ratio = raise ? ratios.most : ratios.least;
  const usable = Number.isFinite(ratio) && ratio > 0 && (raise ? ratio > 1 : ratio < 1);
  const usd = budget === undefined ? NaN : Number(budget);
  if (!usable || !Number.isFinite(usd)) return { way: raise ? 'raise' : 'lower' };
  return { way: raise ? 'raise' : 'lower', ratio, toUsd: roundUsd(picoToUsd(usdToPico(usd)) * ratio, raise) };
}

/**
 * The scenario's budget that binds differently under the new prices: its rows of status `budget binds` (none:
 * undefined), `atBaselinePrices` the same scenario run under the baseline's prices, `changes` every model whose
 * prices changed.
 */
export function budgetBinds(check: ScenarioCheck, args: { rows: readonly DriftRow[]; atBaselinePrices: ScenarioCheck; changes: readonly PriceRowChange[] }): BudgetBinds | undefined {
  const rows = args.rows.filter((row) => row.scenario === check.source && row.status === 'budget binds');
  if (rows.length === 0) return undefined;
  const changes = args.changes.filter((change) => check.models.includes(change.now.model));
  const money = moneyBrake(check);
  const stops = { measured: check.metrics.stopReasons.budget ?? 0, atBaselinePrices: args.atBaselinePrices.metrics.stopReasons.budget ?? 0, runs: check.metrics.runs };
  const advice = adviceOf(money?.budget, stops, priceRatios(changes));
  return {
    scenario: check.source,
    ...(money === undefined ? {} : money),
    figures: rows.map((row) => ({ figure: row.figure, baseline: row.baseline, measured: row.measured, atBaselinePrices: row.atBaselinePrices ?? null })),
    stops,
    models: [...new Set(changes.map((change) => change.now.model))],
    ...(money === undefined ? {} : { advice }),
  };
}

const rate = (value: number | null) => (value === null ? 'none' : checkPercent(value));

/** `under the new prices max-cost (1) stops 49 of 300 runs, 23 at the baseline's: completionRate 76.67% → 70.67% (76.67% at the baseline's prices), …` */
export function bindsText(binds: BudgetBinds): string {
  const figures = binds.figures.map((f) => `${f.figure} ${rate(f.baseline)} → ${rate(f.measured)} (${rate(f.atBaselinePrices)} at the baseline's prices)`).join(', ');
  if (binds.brake === undefined) return `the new prices moved what the brakes do, with no budget set: ${figures}`;
  const { measured, atBaselinePrices, runs } = binds.stops;
  return `under the new prices ${binds.brake} (${binds.budget}) stops ${measured} of ${runs} runs, ${atBaselinePrices} at the baseline's: ${figures}`;
}

/** `raise max-cost to 2 (1 × 2, the most a price of gpt-4o rose: …)`: what fits the budget to the new prices. */
function fixText(binds: BudgetBinds): string | undefined {
  const advice = binds.advice;
  if (binds.brake === undefined || advice === undefined) return undefined;
  const models = binds.models.join(', ');
  if (advice.toUsd === undefined || advice.ratio === undefined) return `${advice.way} ${binds.brake} to fit the new prices of ${models}`;
  const times = `${binds.budget} × ${Number(advice.ratio.toPrecision(4))}`;
  const to = picoToUsdString(usdToPico(advice.toUsd));
  if (advice.way === 'raise') return `raise ${binds.brake} to ${to} (${times}, the most a price of ${models} rose: no run reaches it sooner than it reached ${binds.budget} at the baseline's prices)`;
  return `lower ${binds.brake} to ${to} (${times}, the least a price of ${models} fell to: it stops every run it stopped at the baseline's prices)`;
}

/** Why it fails and what to do, as the report's line and the JUnit failure say it. */
export function bindsSays(drift: Pick<Drift, 'file' | 'accepted'>, binds: BudgetBinds): string {
  const fits = binds.advice?.way === 'lower' ? 'the budget no longer stops the runs it stopped' : 'the budget no longer fits the runs it let finish';
  return `a failure: a price change moves money, which is no brake regression, but these are what the brakes do to the runs — ${fits}; ${acceptText(drift, fixText(binds))}`;
}

/** The lines after the drift table: one per scenario whose budget binds differently. */
export function budgetBindsLines(drift: Pick<Drift, 'file' | 'accepted' | 'budgetBinds'>): string[] {
  return (drift.budgetBinds ?? []).map((binds) => `budget binds: ${binds.scenario}: ${bindsText(binds)}: ${bindsSays(drift, binds)}`);
}

/** `, the budget binds differently under the new prices in 1 scenario (r.yaml)` for the verdict line; empty when none does. */
export function budgetBindsVerdict(drift: Pick<Drift, 'budgetBinds'> | undefined): string {
  const scenarios = (drift?.budgetBinds ?? []).map((binds) => binds.scenario);
  return scenarios.length === 0 ? '' : `, the budget binds differently under the new prices in ${scenariosNamed(scenarios)}`;
}
