/**
 * A SWE-agent trajectory whose run totals (info.model_stats) record calls, cost or tokens but which has no
 * step to carry them is refused as damaged (src/import/sweAgent/recordedTotals.ts): replayed, it would be
 * a $0 run. A run with no step and zero totals (it ended before its first call) still imports and
 * replays, and so does a run whose api_calls differ from its steps (requeries leave no step).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSweAgent } from '../../src/import/sweAgent.js';
import { userErrorOf } from '../helpers.js';
import { tempDir } from '../cli/run.js';

type Json = any;

/** SWE-agent 0.x, GPT-4 (model from the file name), 5 steps; model_stats: api_calls 5, instance_cost $0.53839. */
const FIXTURE = 'test/fixtures/swe-agent/gpt4__swe-agent__test-repo-i1.traj';

function load(): Json {
  return JSON.parse(readFileSync(FIXTURE, 'utf8'));
}

/** The fixture with no steps, and its history cut before the first model call. */
function withoutSteps(modelStats: Json): Json {
  const doc = load();
  doc.trajectory = [];
  doc.history = doc.history.slice(0, doc.history.findIndex((m: Json) => m.role === 'assistant'));
  doc.info.model_stats = modelStats;
  return doc;
}

function write(dir: string, name: string, doc: Json): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

function loopcost(...args: string[]) {
  return spawnSync(process.execPath, ['bin/loopcost.js', ...args], { encoding: 'utf8' });
}

describe('SWE-agent run totals with no step to carry them are refused', () => {
  it('trajectory: [] with api_calls 5 and instance_cost $0.53839 → exit 2 naming file and field, nothing written; --skip-bad drops it', () => {
    const dir = tempDir();
    const damaged = write(dir, 'gpt4__emptied.traj', withoutSteps(load().info.model_stats));
    const out = join(dir, 'report.json');
    const refused = loopcost('replay', damaged, '--format', 'json', '--out', out);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      `${damaged} field 'info.model_stats.api_calls': is 5 (and instance_cost $0.53839, tokens_sent 52861, tokens_received 326), but trajectory has no steps to account for them: a replay would count the run's model calls as never made and its cost as $0`,
    );
    expect(refused.stderr).toMatch(/take the run's \.traj file again from SWE-agent's output; among several inputs, --skip-bad leaves this file out/);
    expect(refused.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(existsSync(out)).toBe(false);

    const skipped = loopcost('replay', damaged, FIXTURE, '--format', 'json', '--skip-bad');
    expect(skipped.status).toBe(0);
    expect(skipped.stderr).toMatch(/skipped 1 of 2 input files with problems \(--skip-bad\):\n.*gpt4__emptied\.traj field 'info\.model_stats\.api_calls'/);
    expect(JSON.parse(skipped.stdout).runs).toHaveLength(1);
  });

  it('one issue, on the first total above zero: a cost with no calls recorded names instance_cost', () => {
    const error = userErrorOf(() => importSweAgent(JSON.stringify(withoutSteps({ instance_cost: 0.25, api_calls: 0 })), '/runs/gpt4__x.traj'));
    expect(error.issues).toEqual([
      expect.objectContaining({
        file: '/runs/gpt4__x.traj',
        field: 'info.model_stats.instance_cost',
        code: 'missing_steps',
        message: "is $0.25, but trajectory has no steps to account for them: a replay would count the run's model calls as never made and its cost as $0",
      }),
    ]);
    const tokensOnly = userErrorOf(() => importSweAgent(JSON.stringify(withoutSteps({ tokens_sent: 900 })), '/runs/gpt4__x.traj'));
    expect(tokensOnly.issues.map((issue) => issue.field)).toEqual(['info.model_stats.tokens_sent']);
  });

  it('an honest run with no step and zero totals (or none) still imports and replays: no calls, $0', () => {
    const zero = { total_cost: 0, instance_cost: 0, tokens_sent: 0, tokens_received: 0, api_calls: 0 };
    expect(importSweAgent(JSON.stringify(withoutSteps(zero)), '/runs/gpt4__x.traj')[0]!.calls).toEqual([]);
    const absent = withoutSteps(zero);
    delete absent.info.model_stats;
    expect(importSweAgent(JSON.stringify(absent), '/runs/gpt4__x.traj')[0]!.calls).toEqual([]);

    const dir = tempDir();
    const honest = write(dir, 'gpt4__setup_failed.traj', withoutSteps(zero));
    const replayed = loopcost('replay', honest, '--format', 'json');
    expect(replayed.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(replayed.status).toBe(0);
    const [run] = JSON.parse(replayed.stdout).runs;
    expect(run).toMatchObject({ modelCalls: 0, costUsd: 0, recordedCostUsd: 0 });
  });

  it('api_calls other than the steps (requeries leave no step) still imports, the totals spread over the steps', () => {
    const doc = load();
    doc.info.model_stats.api_calls = 9;
    const [trace] = importSweAgent(JSON.stringify(doc), '/runs/gpt4__x.traj');
    expect(trace!.calls).toHaveLength(5);
    expect(trace!.calls.reduce((sum, call) => sum + call.inputTokens!, 0)).toBe(52861);
    expect(trace!.end.recordedCalls).toBe(9);
  });
});
