/**
 * `whatif`'s baseline row runs under the command's context strategy like every --try row, so it carries
 * the same strategy figures (summary calls and cost, cache hits lost), equal to what `replay` with the
 * same context and the recorded limits reports: in the table and in JSON, for runs and for session trees.
 */
import { describe, expect, it } from 'vitest';
import { strategyFieldsText } from '../../src/report/strategyFields.js';
import { cli } from './run.js';

const RUNS = ['scenarios/long-exploration.jsonl', 'scenarios/recorded-pair.jsonl'];
const TREE = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';
/** Low enough that long-exploration's prompts pass it many times. */
const SUMMARY = ['--context', 'summary:trigger=8000,keep=2,tokens=200'];
const MASK = ['--context', 'mask:2', '--cache', 'on'];
const FIGURES = ['summaryCalls', 'summaryCostUsd', 'strategyCacheLostTokens', 'skippedActions'] as const;

type Figures = Partial<Record<(typeof FIGURES)[number], number>>;

async function json(...argv: string[]): Promise<Record<string, any>> {
  const { code, stdout, stderr } = await cli(...argv, '--format', 'json');
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout);
}

/** The strategy figures of a report record, only those present. */
function figuresOf(record: Record<string, unknown>): Figures {
  const figures: Figures = {};
  for (const key of FIGURES) if (record[key] !== undefined) figures[key] = record[key] as number;
  return figures;
}

/** replay's totals (cost and strategy figures) over the runs under their recorded limits. */
async function replayed(inputs: string[], context: string[]): Promise<{ costUsd: number; figures: Figures }> {
  const summary = (await json('replay', ...inputs, ...context, '--preset', 'recorded')).summary;
  return { costUsd: summary.totalCostUsd, figures: figuresOf(summary) };
}

/** replay --tree's totals of the one tree. */
async function replayedTree(context: string[]): Promise<{ costUsd: number; figures: Figures }> {
  const totals = (await json('replay', '--tree', TREE, ...context)).trees[0].totals;
  return { costUsd: totals.costUsd, figures: figuresOf(totals) };
}

/** whatif's baseline row in JSON, and the table's text with wrapped lines joined. */
async function whatIf(inputs: string[], context: string[]): Promise<{ baseline: Record<string, any>; table: string }> {
  const argv = ['whatif', ...inputs, ...context, '--try', 'max-steps=5'];
  const baseline = (await json(...argv)).baseline;
  const { code, stdout, stderr } = await cli(...argv, '--format', 'table');
  expect(code, stderr).toBe(0);
  return { baseline, table: stdout.replace(/\n\s+/g, ' ') };
}

describe('whatif: the baseline row carries the strategy figures replay gives', () => {
  it('--context summary: summary calls and their cost equal replay --preset recorded (JSON and table)', async () => {
    const expected = await replayed(RUNS, SUMMARY);
    expect(expected.figures.summaryCalls).toBeGreaterThan(0);
    const { baseline, table } = await whatIf(RUNS, SUMMARY);
    expect(baseline.costUsd).toBe(expected.costUsd);
    expect(figuresOf(baseline)).toEqual(expected.figures);
    expect(baseline.summaryCalls).toBe(expected.figures.summaryCalls);
    expect(baseline.summaryCostUsd).toBe(expected.figures.summaryCostUsd);
    expect(table).toContain(`baseline (recorded limits): ${strategyFieldsText(expected.figures)}`);
  });

  it('--context mask:2 --cache on: cache hits lost equal replay --preset recorded (JSON and table)', async () => {
    const expected = await replayed(RUNS, MASK);
    expect(expected.figures.strategyCacheLostTokens).toBeGreaterThan(0);
    const { baseline, table } = await whatIf(RUNS, MASK);
    expect(baseline.costUsd).toBe(expected.costUsd);
    expect(baseline.strategyCacheLostTokens).toBe(expected.figures.strategyCacheLostTokens);
    expect(figuresOf(baseline)).toEqual(expected.figures);
    expect(table).toContain(`baseline (recorded limits): ${strategyFieldsText(expected.figures)}`);
  });

  it('--tree: the baseline row and each --try row carry the tree figures replay --tree gives', async () => {
    for (const context of [SUMMARY, MASK]) {
      const expected = await replayedTree(context);
      expect(Object.keys(expected.figures).length).toBeGreaterThan(0);
      const { baseline, table } = await whatIf(['--tree', TREE], context);
      expect(baseline.costUsd).toBe(expected.costUsd);
      expect(figuresOf(baseline)).toEqual(expected.figures);
      expect(table).toContain(`baseline (recorded limits): ${strategyFieldsText(expected.figures)}`);
      // The unbraked --try row replays the tree as the baseline does: the same figures.
      const report = await json('whatif', '--tree', TREE, ...context, '--try', 'max-steps=1000');
      expect(figuresOf(report.totals[0])).toEqual(expected.figures);
    }
  });

  it('scenario files: a setting that skips repeats says how many, as replay of that setting does', async () => {
    // A try names a whole set with a preset (preset=none: these brakes only), else goes on top of the file's brakes, as replay's flags do.
    const report = await json('whatif', 'scenarios/weekly-report.yaml', '--try', 'preset=none,max-repeat=2,repeat-action=skip', '--try', 'max-repeat=2,repeat-action=skip');
    const alone = await json('replay', 'scenarios/weekly-report.yaml', '--preset', 'none', '--max-repeat', '2', '--repeat-action', 'skip');
    const onTop = await json('replay', 'scenarios/weekly-report.yaml', '--max-repeat', '2', '--repeat-action', 'skip');
    expect(alone.summary.skippedActions).toBeGreaterThan(0);
    expect([report.totals[0].skippedActions, report.totals[0].costUsd]).toEqual([alone.summary.skippedActions, alone.summary.totalCostUsd]);
    expect([report.totals[1].skippedActions, report.totals[1].costUsd]).toEqual([onTop.summary.skippedActions, onTop.summary.totalCostUsd]);
  });
});
