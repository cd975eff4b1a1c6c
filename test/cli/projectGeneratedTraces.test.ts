/**
 * `project` of traces `loopcost generate` wrote (header.synthetic): they replay as recordings do, yet they are
 * a synthetic agent's runs, so the figures rest on what the scenario assumes, as a hand-written scenario
 * file's do: said in the same line (projectConfidenceText.ts handWrittenText), text and JSON
 * (`handWritten.generated`). Before, such a projection called them recorded runs and said nothing of it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const json = async (...argv: string[]) => {
  const r = await cli('project', ...argv, '--trials', '20', '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

describe('project of generated traces: the figures rest on the scenario they were drawn from', () => {
  it('said in text and JSON, naming the scenario file and the runs; beside a hand-written file, in one line', async () => {
    const dir = tempDir();
    const generated = join(dir, 'gen.jsonl');
    expect((await cli('generate', 'scenarios/flight-search.yaml', '--runs', '12', '--out', generated)).code).toBe(0);
    const text = (await cli('project', generated, '--trials', '20')).stdout.replace(/\s+/g, ' ');
    expect(text).toContain(
      "Generated traces: the 12 runs loopcost generate drew from scenarios/flight-search.yaml are a synthetic agent's runs, not recordings: every figure here holds only as far as the behaviours, weights and sizes that scenario assumes do, and no interval measures them",
    );
    expect(text).toContain('or fit a profile to recorded runs (loopcost fit).');
    const alone = await json(generated);
    expect(alone.handWritten.scenarios).toEqual([]);
    expect(alone.handWritten.generated).toEqual([{ scenario: 'scenarios/flight-search.yaml', runs: 12 }]);
    const mixed = await json(generated, 'scenarios/production-mix.yaml', '--runs', '30');
    expect(mixed.handWritten.scenarios).toEqual([{ source: 'scenarios/production-mix.yaml', syntheticRuns: 30 }]);
    expect(mixed.handWritten.generated).toEqual([{ scenario: 'scenarios/flight-search.yaml', runs: 12 }]);
    expect(mixed.handWritten.text).toMatch(/^Hand-written scenarios: scenarios\/production-mix\.yaml's 30 synthetic runs .*\)\. Generated traces: the 12 runs loopcost generate drew from scenarios\/flight-search\.yaml .* Change the weights/);
  });

  it('a trace with no header.synthetic (a hand-built or real recording) gets no such line', async () => {
    const recorded = await json('scenarios/long-exploration.jsonl');
    expect(recorded.handWritten).toBeUndefined();
  });
});
