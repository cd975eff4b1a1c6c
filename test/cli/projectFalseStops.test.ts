/**
 * `project` says the stops of its own brakes as replay says them: a team lead asking "what will this cost a
 * month" read $213.82 under the reference brakes and a suggested cap that "stops 0 of those 156 runs", while
 * replay of the same runs under the same brakes counted 33 false stops (21.2%); `project --tree … --max-cost 2`
 * projected $134,106.82 a month for a budget that stops every session, with no false-stop line and no
 * `open_loop_brakes`. Now the false stops (JSON: replay's summary fields, equal to replay's on the same runs,
 * counted by replay's FalseStopTally), the open-loop caveat of a brake's early stops (replay's warning,
 * word for word), and the suggested cap's line says what the other brakes stop first.
 */
import { describe, expect, it } from 'vitest';
import { cli, cliJson } from './run.js';
import { suggestCapText } from '../../src/report/suggestCapText.js';

const FIGURES = ['falseStops', 'falseStopRate', 'completeWithoutBrakes', 'falseStopsJudged'] as const;
const figures = (record: Record<string, unknown>) => Object.fromEntries(FIGURES.map((key) => [key, record[key]]));
const openLoop = (report: { warnings: { code: string; message: string }[] }) => report.warnings.filter((w) => w.code === 'open_loop_brakes');

describe('project: the false stops of its brakes, as replay counts them', () => {
  it("synthetic runs under the reference brakes: replay's figures, a text line, and the cap's line says what the other brakes stop", async () => {
    const args = ['scenarios/production-mix.yaml', '--preset', 'reference', '--seed', '7', '--runs', '80'];
    const replay = await cliJson('replay', ...args);
    const project = await cliJson('project', ...args, '--runs-per-day', '2000', '--days', '30', '--trials', '20', '--suggest-cap', '0.02');
    expect(figures(project)).toEqual(figures(replay.summary));
    expect(project.falseStops).toBeGreaterThan(0);
    expect(project.falseStopsJudged).toEqual({ byGroundTruth: 80, byRecordedEnd: 0 });
    // The cap stops none of the completing runs the other brakes let run on; those brakes stop some first.
    const cap = project.suggestCap;
    expect(cap.stopped).toBe(0);
    expect(cap.otherStopped).toBeGreaterThan(0);
    expect(cap.text).toContain(`it stops 0 of those ${cap.completedRuns} runs (0.0%); the other brakes stop ${cap.otherStopped} of them first (`);
    const text = (await cli('project', ...args, '--runs-per-day', '2000', '--trials', '20')).stdout.replace(/\s+/g, ' ');
    expect(text).toContain(`False stops of these brakes (runs they stop that complete with no brakes, as replay counts them): ${project.falseStops} (`);
  });

  it('recorded runs: the same false stops, and the open_loop_brakes warning replay gives, word for word', async () => {
    const args = ['test/fixtures/mini-swe-agent', '--max-steps', '30', '--max-repeat', '3'];
    const replay = await cliJson('replay', ...args);
    const project = await cliJson('project', ...args, '--runs-per-day', '2000', '--trials', '20', '--suggest-cap', '0.05');
    expect(figures(project)).toEqual(figures(replay.summary));
    expect(project.falseStops).toBe(1);
    expect(openLoop(project)).toEqual(openLoop(replay));
    expect(openLoop(project)).toHaveLength(1);
    expect(project.suggestCap.otherStopped).toBe(1);
    // No brake: no false-stop figures (as replay gives none), and the cap alone has no other brakes to speak of.
    const unbraked = await cliJson('project', 'test/fixtures/mini-swe-agent', '--trials', '5', '--suggest-cap', '0.05');
    for (const key of FIGURES) expect(unbraked).not.toHaveProperty(key);
    expect(unbraked.suggestCap).not.toHaveProperty('otherStopped');
    expect(unbraked.suggestCap.text).not.toContain('other brakes stop');
  });

  it("--tree: a budget that stops every session says so, as replay --tree counts it, and a brake's early stops are warned of", async () => {
    const args = ['--tree', '../shared/agent-logs/claude-code', '--max-cost', '2'];
    const replay = await cliJson('replay', ...args);
    const project = await cliJson('project', ...args, '--runs-per-day', '2000', '--days', '30', '--trials', '20');
    expect(figures(project)).toEqual(figures(replay.summary));
    expect(project.falseStopRate).toBe(1);
    expect(openLoop(project)[0]?.message).toMatch(/^a brake stopped 2 recorded runs early/);
    const text = (await cli('project', ...args, '--runs-per-day', '2000', '--trials', '20')).stdout.replace(/\s+/g, ' ');
    expect(text).toContain('False stops of these brakes (session trees they stop that complete with no brakes, as replay --tree counts them): 2 (100.0% of the 2 trees that complete with no brakes;');
  });

  it('the words: other brakes that stop none say so; a stop of them counted in all', () => {
    const facts = { share: 0.02, capPico: 24_233_100_000, largestPico: 76_125_300_000, completedRuns: 156, stopped: 0, upperShare: 0.019, boundShare: 0.019, runsToClaim: 149, modeFlag: '' };
    expect(suggestCapText({ ...facts, otherStopped: 0 })).toContain('it stops 0 of those 156 runs (0.0%); the other brakes stop none of them.');
    expect(suggestCapText({ ...facts, stopped: 2, otherStopped: 33 })).toContain('it stops 2 of those 156 runs (1.3%); the other brakes stop 33 of them first (21.2%, false stops as replay counts them), so 35 of the 156 (22.4%) are stopped in all.');
  });
});
