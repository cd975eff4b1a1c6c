/**
 * replay counts false stops only when a brake is on, by the rule sweep's and check's baselines follow
 * (population/run.ts holdsBrake): `--max-output-tokens` is what requests carry, not a brake — the no-brake
 * run sends it too. Before, `--preset none --max-output-tokens 50` printed `false stops 0 (no run completes
 * with no brakes; …)` with no brake on.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { holdsBrake } from '../../src/population/run.js';
import { cli, cliJson } from './run.js';

const FLIGHTS = 'scenarios/flight-search.yaml';

describe('--max-output-tokens alone is no brake for replay’s false stops', () => {
  it('no false-stop line or figures with --preset none --max-output-tokens 50', async () => {
    const json = await cliJson('replay', FLIGHTS, '--preset', 'none', '--max-output-tokens', '50');
    expect(json.summary.falseStops).toBeUndefined();
    expect(json.summary.falseStopsJudged).toBeUndefined();
    const text = await cli('replay', FLIGHTS, '--preset', 'none', '--max-output-tokens', '50');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toMatch(/false stops/);
  });

  it('beside a brake, the figures are counted', async () => {
    const json = await cliJson('replay', FLIGHTS, '--max-steps', '5', '--max-output-tokens', '50');
    expect(json.summary.falseStopsJudged).toEqual({ byGroundTruth: 30, byRecordedEnd: 0 });
  });

  it('holdsBrake: max_tokens sent is none; a brake, or a brake beside it, is one', () => {
    expect(holdsBrake({ ...NO_BRAKES, maxOutputTokens: 50 })).toBe(false);
    expect(holdsBrake(NO_BRAKES)).toBe(false);
    expect(holdsBrake({ ...NO_BRAKES, maxOutputTokens: 50, maxSteps: 5 })).toBe(true);
    expect(holdsBrake({ ...NO_BRAKES, contextWindow: 'model', maxOutputTokens: 50 })).toBe(true);
  });
});
