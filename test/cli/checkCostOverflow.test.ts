/**
 * `check` and a run past $9,007 (exact picodollars): under --skip-bad its file is a bad file like any
 * other — named among the skipped bad files in sweep's words, left out of every scenario that names it,
 * and the check goes on with the rest (cli/actions/checkTraces.ts, sweepDrop.ts dropOverflowing) —
 * whichever scenario meets it, however it spells the file, and when only the `--baseline` rerun at the
 * baseline's prices meets it. Without --skip-bad the command fails naming the file and run (exit 2).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":10,"goalTokens":5}';
const END = '{"type":"end","outcome":"completed"}';
const native = (...calls: string[]): string => [HEADER, ...calls, END].join('\n') + '\n';
const scenario = (traces: string, extra = '', maxSteps = 12): string => `scenario: loopcost.scenario/1\n${extra}traces: [${JSON.stringify(traces)}]\nexpect:\n  runs:\n    steps: { max: ${maxSteps} }\n`;

let dir = '';
let dear = '';
beforeAll(() => {
  dir = tempDir();
  mkdirSync(join(dir, 'traces'));
  mkdirSync(join(dir, 'every'));
  mkdirSync(join(dir, 'alone'));
  // 10,000,000 input tokens at $1,000 a million: $10,000, past $9,007 — unless 9,990,000 of them are read
  // from the cache (free here), as recorded: then $10.
  writeFileSync(join(dir, 'traces', 'big.jsonl'), native('{"type":"call","inputTokens":10000000,"cachedInputTokens":9990000,"outputTokens":5}'));
  writeFileSync(join(dir, 'traces', 'ok.jsonl'), native('{"type":"call","inputTokens":100,"outputTokens":5,"toolCalls":[{"name":"read","arguments":{"a":1},"resultTokens":10,"id":"r1"}]}', '{"type":"call","inputTokens":200,"outputTokens":5}'));
  dear = join(dir, 'dear.json');
  writeFileSync(dear, JSON.stringify({ 'gpt-4o': { input_cost_per_token: 0.001, cache_read_input_token_cost: 0, output_cost_per_token: 0.001, litellm_provider: 'openai', mode: 'chat' } }));
  const cacheOff = 'context: { context: full, cache: off }\n';
  // The same check of every trace, and of the good one alone (its one run takes 2 steps: `max: 1` fails).
  writeFileSync(join(dir, 'every', 's.yaml'), scenario('../traces/*.jsonl', cacheOff, 1));
  writeFileSync(join(dir, 'alone', 's.yaml'), scenario('../traces/ok.jsonl', cacheOff, 1));
  // Two scenarios spelling the same files two ways: only the one with the cache off meets the run past $9,007.
  writeFileSync(join(dir, 'asRecorded.yaml'), scenario('traces/*.jsonl'));
  writeFileSync(join(dir, 'cacheOff.yaml'), scenario(join(dir, 'traces', '*.jsonl'), cacheOff));
});

const BIG = /big\.jsonl field 'calls': run on gpt-4o with 1 recorded call: one run costs more than \$9,007, beyond/;
const SKIPPED = /skipped 1 of 2 input files with problems \(--skip-bad\):\n {2}\S*big\.jsonl field 'calls': run on gpt-4o with 1 recorded call: one run costs more than \$9,007/;

describe('check: a run past $9,007', () => {
  it('--skip-bad: its file is named among the skipped bad files and the check goes on as a check of the good file alone (exit 1 here, not 2)', async () => {
    const all = await cli('check', join(dir, 'every', 's.yaml'), '--prices-override', dear, '--skip-bad');
    const alone = await cli('check', join(dir, 'alone', 's.yaml'), '--prices-override', dear);
    expect(alone.code).toBe(1);
    expect(all.code).toBe(alone.code);
    expect(all.stderr).toMatch(SKIPPED);
    // The report of the good file alone, but for the warning naming the file left out (as stderr did).
    const [report, warning] = all.stdout.replaceAll(join('every', 's.yaml'), join('alone', 's.yaml')).split(/(?=^warning: left out 1 of 2 input files)/m);
    expect(warning).toMatch(/^warning: left out 1 of 2 input files with problems \(--skip-bad\), none of their runs in these figures:\n\s+\S*big\.jsonl field 'calls'/);
    expect(report! + warning!.replace(/^warning: left out[\s\S]*?\n(?=\S|$)/, '')).toBe(alone.stdout);
  });

  it('without --skip-bad: exit 2 naming the file and run, nothing on stdout', async () => {
    const r = await cli('check', join(dir, 'every', 's.yaml'), '--prices-override', dear);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(BIG);
    expect(r.stderr).toMatch(/1 of 2 input files have problems; nothing was written/);
  });

  it('left out of every scenario that names it, whichever meets it and however it spells the file: the same results in either order', async () => {
    // The scenario files relative to the working directory: `asRecorded` spells the traces relative, `cacheOff` absolute.
    const asRecorded = relative(process.cwd(), join(dir, 'asRecorded.yaml'));
    const cacheOff = relative(process.cwd(), join(dir, 'cacheOff.yaml'));
    const results = [];
    for (const order of [[asRecorded, cacheOff], [cacheOff, asRecorded]]) {
      const r = await cli('check', ...order, '--prices-override', dear, '--skip-bad', '--format', 'json');
      expect(r.code, order.join(' ')).toBe(0);
      expect(r.stderr, order.join(' ')).toMatch(SKIPPED);
      const scenarios = (JSON.parse(r.stdout) as { scenarios: { source: string; recordedRuns: number }[] }).scenarios;
      results.push(Object.fromEntries(scenarios.map((s) => [s.source, s])));
    }
    expect(results[0]![asRecorded]!.recordedRuns).toBe(1);
    expect(results[0]![cacheOff]!.recordedRuns).toBe(1);
    expect(results[1]).toEqual(results[0]);
  });

  it("met only by the --baseline rerun at the baseline's prices: left out under --skip-bad, exit 2 naming it without", async () => {
    const baseline = join(dir, 'baseline.json');
    const s = join(dir, 'cacheOff.yaml');
    // The baseline, at the dear prices: the run past $9,007 left out of it.
    const wrote = await cli('check', s, '--prices-override', dear, '--skip-bad', '--update-baseline', baseline);
    expect(wrote.code, wrote.stderr).toBe(0);
    expect(wrote.stderr).toMatch(SKIPPED);
    // At the table's prices the run costs $25; the check runs again at the baseline's prices, and meets it there.
    const refused = await cli('check', s, '--baseline', baseline);
    expect([refused.code, refused.stdout]).toEqual([2, '']);
    expect(refused.stderr).toMatch(BIG);
    const skipped = await cli('check', s, '--baseline', baseline, '--skip-bad');
    expect(skipped.code, skipped.stdout).toBe(0);
    expect(skipped.stderr).toMatch(SKIPPED);
    expect(skipped.stdout).toMatch(/1 recorded run\b/);
    expect(skipped.stdout).toMatch(/price change/);
  });
});
