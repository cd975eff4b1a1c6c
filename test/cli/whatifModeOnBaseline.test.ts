/**
 * `whatif --try budget-mode=predict`: a try applies on top of each run's baseline (its recorded limits, a
 * scenario file's brakes), so a mode alone has an effect wherever that baseline holds the mode's brake. It
 * was refused up front as "a mode without its brake" whatever the baselines held; now it is accepted when
 * every input's baseline holds the brake, and refused naming the inputs whose baseline holds none.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

/** A completed recorded run of 4 calls of 20,000 input tokens each (gpt-4o-mini: $0.003 a call), with `recordedSettings`. */
function recording(dir: string, name: string, recordedSettings?: Record<string, unknown>): string {
  const path = join(dir, name);
  const calls = [1, 2, 3, 4].map((i) => ({ type: 'call', inputTokens: 20_000, outputTokens: 10, toolCalls: [{ name: 'run', arguments: { step: i }, resultTokens: 20 }] }));
  const header = { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 10, goalTokens: 5, ...(recordedSettings === undefined ? {} : { recordedSettings }) };
  writeFileSync(path, [header, ...calls, { type: 'end', outcome: 'completed' }].map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
}

interface Total {
  setting: string;
  onBaseline: boolean;
  stopReasons: Record<string, number>;
}

describe('whatif: a --try mode whose brake each run\'s baseline holds', () => {
  it('is accepted on a recorded run with a recorded budget, and applies to that budget', async () => {
    const dir = tempDir();
    const budgeted = recording(dir, 'budgeted.jsonl', { maxCostUsd: 0.01 });
    const r = await cli('whatif', budgeted, '--try', 'budget-mode=predict', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const [predict] = JSON.parse(r.stdout).totals as Total[];
    expect(predict).toMatchObject({ setting: 'budget-mode=predict', onBaseline: true });
    // The recorded budget ($0.01) under the predictive bound: a budget stop, where the baseline's check mode lets the run finish its last call.
    expect(predict!.stopReasons.budget).toBe(1);
  });

  it("is accepted on a scenario file whose brakes hold the budget (flight-search's reference preset)", async () => {
    const r = await cli('whatif', 'scenarios/flight-search.yaml', '--runs', '5', '--try', 'budget-mode=predict', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout).totals as Total[])[0]).toMatchObject({ setting: 'budget-mode=predict', onBaseline: true });
  });

  it('is refused naming only the inputs whose baseline holds no budget', async () => {
    const dir = tempDir();
    const budgeted = recording(dir, 'budgeted.jsonl', { maxCostUsd: 0.01 });
    const open = recording(dir, 'open.jsonl');
    const r = await cli('whatif', budgeted, 'scenarios/flight-search.yaml', open, 'scenarios/recorded-pair.jsonl', '--runs', '5', '--try', 'budget-mode=predict');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`'budget-mode=predict': budget-mode has no effect without max-cost, which the baseline of 2 inputs (${open} and scenarios/recorded-pair.jsonl) does not hold`);
    expect(r.stderr).not.toContain(budgeted);
    expect(r.stderr).toContain('write max-cost=N,budget-mode=… in the same --try');
  });

  it('a try naming a preset is a whole set: a mode without its brake there is refused before any run, as before', async () => {
    const r = await cli('whatif', 'scenarios/flight-search.yaml', '--try', 'preset=none,budget-mode=predict');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("'preset=none,budget-mode=predict': budget-mode has no effect without max-cost");
  });
});
