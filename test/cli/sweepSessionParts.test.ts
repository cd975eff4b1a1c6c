/**
 * `sweep` and `calibrate` on a Claude Code session's parts (main.1, main.2, sub-agents) never said what replay,
 * whatif, project and check say (the session_parts warning): each brake binds each part on its own, so a $1
 * budget "completes 4/4" part by part while the session costs $1.42. They say it now by the same rule and
 * words (report/sessionParts.ts sessionPartsWarnings), with brakes held (population/run.ts holdsBrake), not
 * under --tree; a sweep's threads count the parts of the files they read (sweepHeaderFacts.ts) and the command
 * joins them; and a recommendation picked on parts says what its figures mean for whole sessions.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';
import { joinRunHeaderFacts, RunHeaderFactsTally } from '../../src/cli/actions/sweepHeaderFacts.js';
import { SessionParts, sessionPartsRecommendation } from '../../src/report/sessionParts.js';
import { calibrate, loadPriceTable, readTraces } from '../../src/index.js';
import type { Trace } from '../../src/trace/types.js';

const SESSION = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';
const GRID = ['--grid', 'max-cost=0.5,1'];

type Report = { warnings?: { code: string; message: string }[]; recommendation?: { text: string } | null };

async function json(...argv: string[]): Promise<Report> {
  const r = await cli(...argv, '--format', 'json');
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as Report;
}

const partsWarning = (report: Report) => report.warnings?.filter((w) => w.code === 'session_parts') ?? [];

describe('sweep and calibrate on parts of a session tree', () => {
  it('sweep says each brake binds each part, on one thread and two, in JSON and under the table', async () => {
    const [said] = partsWarning(await json('sweep', SESSION, ...GRID, '--workers', '1'));
    expect(said!.message).toMatch(/^4 runs are parts of 1 session tree .*: each brake binds each part on its own, not the session, and each configuration's runs, completions, cost per completed run and false stops count each part as one, not each session; sweep --tree replays each session as one run/);
    // Two threads read the files: the parts they counted reach the command's thread, joined.
    expect(partsWarning(await json('sweep', SESSION, ...GRID, '--workers', '2'))).toEqual([said]);
    const table = await cli('sweep', SESSION, ...GRID);
    expect(table.stdout.replace(/\s+/g, ' ')).toContain('warning: 4 runs are parts of 1 session tree');
  });

  it('the recommendation picked on parts says its budget binds each part, and how to pick for whole sessions', async () => {
    const report = await json('sweep', SESSION, ...GRID, '--target-completion', '0.5');
    expect(report.recommendation!.text).toContain('Session parts: its figures count each part of a session tree as a run of its own, each of its brakes (a budget too) binding each part on its own, not the session: over whole sessions it may complete fewer and cost more; sweep --tree picks brakes for whole sessions.');
    const table = await cli('sweep', SESSION, ...GRID, '--target-completion', '0.5');
    expect(table.stdout.replace(/\s+/g, ' ')).toContain('Session parts: its figures count each part');
  });

  it('calibrate says it in its own words (it has no --tree), in JSON and under the table', async () => {
    const [said] = partsWarning(await json('calibrate', SESSION, '--grid', 'max-repeat=2,3'));
    expect(said!.message).toContain('each brake binds each part on its own, not the session, and the false stops on recorded runs count each part as one');
    expect(said!.message).toContain('calibrate has no --tree: sweep --tree replays each session as one run');
    const table = await cli('calibrate', SESSION, '--grid', 'max-repeat=2,3');
    expect(table.stdout.replace(/\s+/g, ' ')).toContain('4 runs are parts of 1 session tree');
  });

  it('not under --tree; with no brake held (a per-request cap alone) only the figures are said, as replay says them', async () => {
    const tree = await json('sweep', '--tree', SESSION, ...GRID, '--target-completion', '0.5');
    expect(partsWarning(tree)).toEqual([]);
    expect(tree.recommendation?.text ?? '').not.toContain('Session parts');
    const [capped] = partsWarning(await json('sweep', SESSION, '--grid', 'max-output-tokens=1000,2000'));
    expect(capped!.message).not.toContain('each brake binds');
    expect(capped!.message).toContain('count each part as one');
    expect(partsWarning(await json('sweep', 'scenarios/recorded-pair.jsonl', ...GRID))).toEqual([]);
  });

  it("the library's calibrate says it as the command does", async () => {
    const [said] = partsWarning(await json('calibrate', SESSION, '--grid', 'max-repeat=2,3'));
    const { warnings } = calibrate(await readTraces([SESSION]), { prices: loadPriceTable(), configurations: [{ maxRepeat: 2 }, { maxRepeat: 3 }] });
    expect(partsWarning({ warnings })).toEqual([said]);
  });
});

describe('session parts counted apart and joined (the threads of a sweep)', () => {
  const trace = (sessionId: string | undefined) => ({ source: 'x', header: sessionId === undefined ? {} : { agent: { sessionId } }, calls: [] }) as unknown as Trace;

  it('a session whose parts two units read counts once, its runs added', () => {
    const a = new RunHeaderFactsTally().add(trace('s1')).add(trace('s2')).facts();
    const b = new RunHeaderFactsTally().add(trace('s1')).add(trace(undefined)).facts();
    const joined = joinRunHeaderFacts([{ order: 1, facts: b }, { order: 0, facts: a }]);
    expect(new SessionParts().addCounted(joined.sessionRuns).parts()).toEqual({ runs: 2, sessions: 1 });
    expect(new RunHeaderFactsTally().add(trace(undefined)).facts().sessionRuns).toBeUndefined();
  });

  it('the recommendation says nothing where the report warns of no session parts', () => {
    expect(sessionPartsRecommendation([{ code: 'open_loop', message: 'x' }])).toBeUndefined();
  });
});
