/**
 * A sweep's configurations are the grid and the flags given, the same for every input: a scenario file's
 * own brakes and context are not used. `sweep` and `calibrate` now say which settings each file set that
 * the sweep replaced (neither a grid axis nor a flag gave them), once per file (files setting the same
 * share a line), with the flags that keep them; the footer names the cache among what the sweep gives.
 * And the baseline `saved` is measured against (no brakes, up to the hard cap) is given its own total.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from './run.js';

/** The `warning:` lines of a text, each joined with its indented continuation lines. */
function warnings(text: string): string[] {
  return text.replace(/\n {2,}/g, ' ').split('\n').filter((line) => line.startsWith('warning: '));
}

const UNUSED = /which this (sweep|calibration) does not use/;

async function unusedLines(...argv: string[]): Promise<string[]> {
  const r = await cli(...argv);
  expect(r.code, r.stderr).toBe(0);
  return warnings(r.stderr).filter((line) => UNUSED.test(line));
}

async function jsonReport(...argv: string[]): Promise<{ warnings: { code: string; message: string }[]; notes: string[]; configurations: { costUsd: number; baselineCostUsd: number }[] }> {
  const r = await cli(...argv, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe("sweep and calibrate: a scenario file's settings the sweep does not use", () => {
  const dir = tempDir();
  const brakes = '{ max-steps: 12, max-cost: 0.1, repeat-mode: total }';
  const triage = oneEntryScenario(dir, 'triage.yaml', { runs: '20', brakes, context: '{ context: full, cache: on }' });
  const twin = oneEntryScenario(dir, 'twin.yaml', { runs: '20', brakes, context: '{ context: full, cache: on }' });
  const other = oneEntryScenario(dir, 'other.yaml', { runs: '20', context: '{ context: "window:3", tool-result-cap: 50 }' });
  const plain = oneEntryScenario(dir, 'plain.yaml', { runs: '20' });

  it('names what the file set and no axis or flag gave, with the flags that keep it (not what the sweep runs anyway: context full, repeat-mode total)', async () => {
    const lines = await unusedLines('sweep', triage, '--grid', 'max-steps=5,10');
    expect(lines).toEqual([
      `warning: ${triage} sets max-cost 0.1 and cache on, which this sweep does not use (every configuration is the grid and the flags given): to keep them, add --max-cost 0.1 --cache on`,
    ]);
    // Without a grid axis for it, the file's step cap is named too.
    expect(await unusedLines('sweep', triage, '--grid', 'max-repeat=2,3')).toEqual([expect.stringContaining('sets max-steps 12, max-cost 0.1 and cache on, which this sweep')]);
  });

  it('says nothing once the flags keep them, or for a file that sets nothing', async () => {
    expect(await unusedLines('sweep', triage, '--grid', 'max-steps=5,10', '--max-cost', '0.1', '--cache', 'on')).toEqual([]);
    expect(await unusedLines('sweep', triage, '--grid', 'max-steps=5,10', '--grid', 'cache=on,off', '--max-cost', '0.2')).toEqual([]);
    expect(await unusedLines('sweep', plain, '--grid', 'max-steps=5,10')).toEqual([]);
  });

  it('one line for files that set the same, one for each other; a preset given replaces the brakes (as replay), so only the context is named', async () => {
    const lines = await unusedLines('sweep', triage, twin, other, '--grid', 'max-steps=5,10');
    expect(lines).toEqual([
      expect.stringContaining(`${triage} and ${twin} set max-cost 0.1 and cache on, which`),
      expect.stringContaining(`${other} sets context window:3 and tool-result-cap 50, which this sweep does not use (every configuration is the grid and the flags given): to keep them, add --context window:3 --tool-result-cap 50`),
    ]);
    expect(await unusedLines('sweep', triage, '--grid', 'preset=none,reference')).toEqual([expect.stringMatching(/sets cache on, which .* to keep it, add --cache on$/)]);
  });

  it('in the JSON report, and on stderr beside a CSV; calibrate says it of its calibration', async () => {
    const report = await jsonReport('sweep', triage, '--grid', 'max-steps=5,10');
    expect(report.warnings.filter((w) => w.code === 'scenario_settings_unused')).toHaveLength(1);
    const csv = await cli('sweep', triage, '--grid', 'max-steps=5,10', '--format', 'csv');
    expect(warnings(csv.stderr).filter((line) => UNUSED.test(line))).toHaveLength(1);
    expect(await unusedLines('calibrate', triage, '--grid', 'max-repeat=2,3')).toEqual([expect.stringContaining('sets max-steps 12, max-cost 0.1 and cache on, which this calibration does not use')]);
  });

  it("the footer names the cache among what the sweep gives its synthetic runs", async () => {
    const r = await cli('sweep', triage, '--grid', 'max-steps=5,10');
    expect(r.stdout.replace(/\n/g, ' ')).toContain("take the sweep's brakes, context and cache, not their scenario files'");
  });
});

describe("sweep: the baseline's own total beside 'saved'", () => {
  const dir = tempDir();
  const stuck = join(dir, 'stuck.yaml');
  writeFileSync(
    stuck,
    ['scenario: loopcost.scenario/1', 'model: gpt-4o-mini', 'systemTokens: 10', 'runs: 20', 'hardCapSteps: 40', 'population:', '  - behaviour: retrier', '    weight: 1', '    error: "CRM timeout"', '    outputTokens: 10', '    toolResultTokens: 200', '  - behaviour: healthy', '    weight: 1', '    steps: 3', '    outputTokens: 10', '    toolResultTokens: 200'].join('\n') + '\n',
  );

  it('each row carries what its runs cost with no brakes, the same as replay with none; the note says it, with the hard cap', async () => {
    const report = await jsonReport('sweep', stuck, '--grid', 'max-steps=3,10');
    const none = await cli('replay', stuck, '--preset', 'none', '--cache', 'off', '--format', 'json');
    const noBrakes = JSON.parse(none.stdout).summary.totalCostUsd as number;
    expect(noBrakes).toBeGreaterThan(0);
    expect(report.configurations.map((row) => row.baselineCostUsd)).toEqual([noBrakes, noBrakes]);
    // The same when the runs are split over two threads (their tallies merged).
    expect((await jsonReport('sweep', stuck, '--grid', 'max-steps=3,10', '--workers', '2')).configurations.map((row) => row.baselineCostUsd)).toEqual([noBrakes, noBrakes]);
    // A CSV column too (CSV columns are the JSON names).
    const csv = (await cli('sweep', stuck, '--grid', 'max-steps=3,10', '--format', 'csv')).stdout.split('\n');
    const column = csv[0]!.split(',').indexOf('baselineCostUsd');
    expect(column).toBeGreaterThan(0);
    expect(Number(csv[1]!.split(',')[column])).toBe(noBrakes);
    const note = report.notes.find((n) => n.startsWith('Baseline of every figure:'))!;
    expect(note).toContain('up to the hard cap (40 steps)');
    expect(note).toMatch(/With no brakes these runs cost \$[\d.]+ in all: what "saved" is measured against\.$/);
  });

  it('from the least to the most when the configurations run under different contexts', async () => {
    const report = await jsonReport('sweep', stuck, '--grid', 'context=full,window:2');
    const [full, window] = report.configurations.map((row) => row.baselineCostUsd);
    expect(full).not.toBe(window);
    expect(report.notes[0]).toMatch(/With no brakes these runs cost from \$[\d.]+ to \$[\d.]+ in all, by configuration/);
  });
});
