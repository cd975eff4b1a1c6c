/**
 * A settings line names every setting that made the figures, and claims nothing the per-file lines
 * contradict: the cache of scenario files' runs, a budget mode given on top of `--preset recorded`, and
 * what a curve (which has no recording) used for latency and prices.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { brakesFromSpec } from '../../src/flags/settingsFlags.js';
import { brakeSpec, reportSettings, withScenarioCaches } from '../../src/report/settings.js';
import { defaultCacheSpec } from '../../src/report/runsTook.js';
import { cli } from '../cli/run.js';

const MINI = '../shared/traces/mini-swe-agent';
const CURVE = ['curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '10'];
const settingsLine = (text: string) => text.match(/^settings: [^]*?(?=\n\S)/m)?.[0].replace(/\s+/g, ' ');

describe('the cache of scenario files runs', () => {
  it('said as their files set it, never "synthetic: off" when a file set it on; a --cache given stays', () => {
    expect(defaultCacheSpec()).toBe('as recorded (synthetic: off)');
    expect(defaultCacheSpec([undefined, 'off'])).toBe('as recorded (synthetic: off)');
    expect(defaultCacheSpec(['on', 'on'])).toBe('as recorded (synthetic: on)');
    expect(defaultCacheSpec(['off', 'on'])).toBe("as recorded (synthetic: each scenario file's own)");
    const given = reportSettings({ brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'off' } });
    expect(withScenarioCaches(given, ['on'])).toEqual(given);
    expect(withScenarioCaches(reportSettings({ brakes: NO_BRAKES, strategy: { kind: 'full' } }), ['on']).cache).toBe('as recorded (synthetic: on)');
  });

  it('npm start (replay scenarios --preset reference): the settings line agrees with the per-file lines', async () => {
    const r = await cli('replay', 'scenarios', '--preset', 'reference');
    expect(r.code).toBe(0);
    expect(settingsLine(r.stdout)).toMatch(/ · cache as recorded \(synthetic: each scenario file's own\) · /);
    expect(r.stdout).not.toMatch(/synthetic: off/);
    expect(r.stdout).toMatch(/^synthetic: scenarios\/production-mix\.yaml \(200 runs, seed 1\) · context full · cache on ·/m);
    const json = JSON.parse((await cli('replay', 'scenarios', '--preset', 'reference', '--format', 'json')).stdout);
    expect(json.settings.spec.cache).toBe("as recorded (synthetic: each scenario file's own)");
    // JSON settings.contextSettings says the cache as the settings line does (what the runs took), not a default rule of its own.
    expect(json.settings.contextSettings.cache).toBe("as recorded (synthetic: each scenario file's own)");
  });

  it('whatif on production-mix (cache on): "on" (no recorded run); with --cache off, off everywhere', async () => {
    const text = (await cli('whatif', 'scenarios/production-mix.yaml', '--try', 'max-steps=20')).stdout;
    expect(settingsLine(text)).toMatch(/ · cache on · /);
    expect(text).not.toMatch(/synthetic: off/);
    const off = (await cli('whatif', 'scenarios/production-mix.yaml', '--try', 'max-steps=20', '--cache', 'off')).stdout;
    expect(settingsLine(off)).toMatch(/ · cache off · /);
    expect(off).not.toMatch(/cache on/);
  });
});

describe('--preset recorded with a budget mode on top', () => {
  it('whatif under a context strategy: the baseline row names the recorded limits, not "as recorded" (the strategy re-prices it)', async () => {
    const r = await cli('whatif', 'scenarios/recorded-pair.jsonl', '--context', 'window:2', '--try', 'max-steps=3');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^baseline \(recorded limits\) /m);
    expect(r.stdout).not.toContain('as recorded)  ');
  });

  it('the spec names the mode: preset=recorded,budget-mode=predict (and the output bound when given)', () => {
    const predict = { ...NO_BRAKES, budgetMode: 'predict' as const };
    expect(reportSettings({ brakes: predict, perRunRecordedLimits: true, strategy: { kind: 'full' } }).brakes).toBe('preset=recorded,budget-mode=predict');
    expect(reportSettings({ brakes: { ...predict, maxOutputTokens: 1000, maxSteps: 30 }, perRunRecordedLimits: true, strategy: { kind: 'full' } }).brakes).toBe('preset=recorded,max-steps=30,budget-mode=predict,max-output-tokens=1000');
    expect(reportSettings({ brakes: { ...NO_BRAKES, repeatMode: 'consecutive', sameErrorMode: 'total' }, perRunRecordedLimits: true, strategy: { kind: 'full' } }).brakes).toBe('preset=recorded,repeat-mode=consecutive,same-error-mode=total');
    expect(reportSettings({ brakes: NO_BRAKES, perRunRecordedLimits: true, strategy: { kind: 'full' } }).brakes).toBe('preset=recorded');
    // Without recorded limits a mode alone does nothing, and is not named.
    expect(reportSettings({ brakes: predict, strategy: { kind: 'full' } }).brakes).toBe('none');
  });

  it('--max-output-tokens (the predictive bound) is named beside budget-mode=predict, and reads back', () => {
    const brakes = brakesFromSpec('max-cost=0.5,budget-mode=predict,max-output-tokens=1000');
    expect(brakeSpec(brakes)).toBe('max-cost=0.5,budget-mode=predict,max-output-tokens=1000');
    expect(brakesFromSpec(brakeSpec(brakes))).toEqual(brakes);
    // Given, it is named whatever the mode: every call sends it, and a synthetic agent's provider cuts output at it.
    expect(brakeSpec(brakesFromSpec('max-cost=0.5,budget-mode=check,max-output-tokens=1000'))).toBe('max-cost=0.5,budget-mode=check,max-output-tokens=1000');
  });

  it('replay mini-swe-agent --preset recorded --budget-mode predict: text and JSON say predict', async () => {
    const args = ['replay', MINI, '--preset', 'recorded', '--budget-mode', 'predict'];
    expect(settingsLine((await cli(...args)).stdout)).toMatch(/^settings: brakes preset=recorded,budget-mode=predict · /);
    const json = JSON.parse((await cli(...args, '--format', 'json')).stdout);
    expect(json.settings.spec.brakes).toBe('preset=recorded,budget-mode=predict');
    expect(json.settings.brakeSettings).toEqual({ preset: 'recorded: each run with its own recorded limits', budgetMode: 'predict', maxOutputTokens: 4096 });
  });
});

describe('curve: what it used, not what a recording would have', () => {
  it('latency none (no --latency-model), prices as of the one day read', async () => {
    const text = (await cli(...CURVE)).stdout;
    expect(settingsLine(text)).toBe('settings: brakes none · context full · cache off · latency none');
    expect(text).not.toMatch(/as recorded|each run was recorded/);
    expect(text.replace(/\n {8}/g, ' ')).toMatch(/^prices: @pydantic\/genai-prices \S+ \(sha256 \w+\) \+ \d+ loopcost corrections \(v\d+, sha256 \w+\), dated prices as of (\d{4}-\d\d-\d\d), the table's release day/m);
    const json = JSON.parse((await cli(...CURVE, '--format', 'json')).stdout);
    expect(json.settings.latency).toBe('none');
    expect(json.prices).toMatchObject({ dating: 'release', asOf: json.prices.releasedOn });
    const csv = (await cli(...CURVE, '--format', 'csv')).stdout.split('\n');
    expect(csv[1]).toMatch(new RegExp(`,none,,@pydantic/genai-prices,[^,]+,\\w+\\+loopcost-corrections\\.\\w+,${json.prices.releasedOn},$`));
  });

  it('with --latency-model and --prices-as-of: those', async () => {
    const text = (await cli(...CURVE, '--latency-model', 'call=100', '--prices-as-of', '2025-01-01')).stdout;
    expect(settingsLine(text)).toMatch(/ · latency call=100,input-token=0,output-token=0,tool=0$/);
    expect(text.replace(/\n {8}/g, ' ')).toMatch(/^prices: .*, dated prices as of 2025-01-01$/m);
  });
});
