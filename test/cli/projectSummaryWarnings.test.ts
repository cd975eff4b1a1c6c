/**
 * `project` under a summary strategy says what its summaries did, from the rule replay and sweep say it by
 * (report/summaryCallWarning.ts summaryCallWarnings, via warningLists.ts projectSummaryWarnings): a trigger no
 * run reaches warns `summary_none` in sweep's words, summaries before most steps `summary_most_steps`; the
 * library's projectSpend returns the same. Before, project gave no summary warning while sweep and calibrate did.
 */
import { describe, expect, it } from 'vitest';
import { summarisingFile, summaryWarnings, warningsOf } from './summaryWarningHelpers.js';
import { loadPriceTable, projectSpend, readTraces } from '../../src/index.js';
import { parseContextSpec } from '../../src/context/strategy.js';


describe('project: what a summary strategy did, as sweep says it', () => {
  it("a scenario file's own strategy whose trigger no run reaches: summary_none, sweep's words", async () => {
    const file = summarisingFile(100000);
    const projected = summaryWarnings(await warningsOf('project', file, '--trials', '20'));
    expect(projected.map((w) => w.code)).toEqual(['summary_none']);
    expect(projected[0]!.message).toMatch(/^context summary:trigger=100000,keep=2,tokens=80: no summary call in 30 of 30 runs: /);
    expect(projected).toEqual(summaryWarnings(await warningsOf('sweep', file)));
  });

  it('summaries before most steps: summary_most_steps, no summary_none', async () => {
    const projected = summaryWarnings(await warningsOf('project', summarisingFile(3000), '--trials', '20'));
    expect(projected.map((w) => w.code)).toEqual(['summary_most_steps']);
    expect(projected[0]!.message).toMatch(/^context summary:trigger=3000,keep=2,tokens=80: a summary call before most steps in \d+ of 30 runs /);
  });

  it('recorded runs under --context summary:…: the command and the library alike', async () => {
    const spec = 'summary:trigger=100000,keep=2,tokens=80';
    const said = summaryWarnings(await warningsOf('project', 'scenarios/recorded-pair.jsonl', '--context', spec, '--trials', '20'));
    expect(said.map((w) => w.code)).toEqual(['summary_none']);
    expect(said[0]!.message).toContain('no summary call in 2 of 2 runs');
    const library = projectSpend(await readTraces(['scenarios/recorded-pair.jsonl']), { prices: loadPriceTable(), strategy: parseContextSpec(spec), trials: 20 });
    expect(summaryWarnings(library.warnings)).toEqual(said);
  });

  it('full history: no summary warning', async () => {
    expect(summaryWarnings(await warningsOf('project', 'scenarios/recorded-pair.jsonl', '--trials', '20'))).toEqual([]);
  });
});
