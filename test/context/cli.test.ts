/** Bad strategy and skip specs: exit 2, one message naming the flag; good ones reach the report. */
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';

const TRACE = 'test/fixtures/mini-swe-agent/deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json';

describe('--context and --repeat-action specs', () => {
  it.each([
    ['window:0', 'K must be a whole number greater than 0'],
    ['mask:0', 'M must be a whole number greater than 0'],
    ['summary:trigger=5000,keep=0,tokens=500', 'keep must be a whole number greater than 0'],
    ['hybrid:mask=5,trigger=5000,keep=-1,tokens=500', 'keep must be a whole number greater than 0'],
    ['summary:trigger=9000000,keep=3,tokens=500', 'above the context window'],
    ['summary:trigger=5000,keep=3,tokens=500,colour=red', "unknown key 'colour=red'"],
    ['mask:5,keep=3', "unknown key 'keep=3'"],
    ['summary:keep=3,tokens=500', 'trigger is missing'],
    ['summary:trigger=150%,keep=3,tokens=500', 'at most 100%'],
    ['compact:3', 'not a context strategy'],
  ])('--context %s → exit 2 naming --context', async (spec, message) => {
    const r = await cli('replay', TRACE, '--context', spec);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("field '--context'");
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    [['--max-repeat', '2', '--repeat-action', 'jump'], "'--repeat-action'"],
    [['--max-repeat', '2', '--repeat-action', 'skip,max-skips=-1'], "'--repeat-action'"],
    [['--max-repeat', '2', '--repeat-action', 'skip,limit=3'], "'--repeat-action'"],
    [['--repeat-action', 'skip'], "'--repeat-action'"],
  ])('%j → exit 2 naming the flag', async (flags, field) => {
    const r = await cli('replay', TRACE, ...flags);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(field);
  });

  it('a summary trigger as a share of the window, and the skip guard, show in the report and its settings line', async () => {
    const r = await cli('replay', TRACE, '--context', 'summary:trigger=10%,keep=2,tokens=800', '--cache', 'on', '--max-repeat', '1', '--repeat-action', 'skip,max-skips=5');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/context summaries\s+1 call \(not steps\)/);
    expect(r.stdout).toContain('context summary:trigger=10%,keep=2,tokens=800');
    expect(r.stdout).toContain('repeat-action=skip,max-skips=5');
    expect(r.stdout).toContain('warning: repeat-action skip on 1 recorded run:');
  });
});

describe('curve --compare-context', () => {
  it('cumulative tokens per step of each strategy side by side, checked by hand (system 100, steps of 10 + 100)', async () => {
    const r = await cli('curve', '--model', 'gpt-4o', '--system-tokens', '100', '--output-tokens', '10', '--tool-tokens', '100', '--steps', '4', '--compare-context', 'window:1;mask:1,placeholder=5;summary:trigger=300,keep=1,tokens=20', '--format', 'json');
    expect(r.code).toBe(0);
    const { comparison } = JSON.parse(r.stdout);
    expect(comparison.strategies).toEqual(['full', 'window:1', 'mask:1,placeholder=5', 'summary:trigger=300,keep=1,tokens=20']);
    // Prompts: full 100 210 320 430; window:1 100 210 210 210; mask 100 210 225 240;
    // summary 100 210 [summary 320 → 20] 230 [summary 340 → 20] 230 (a summary's tokens counted at the step after it).
    expect(comparison.rows.map((row: { cumulativeTokens: number[] }) => row.cumulativeTokens)).toEqual([
      [110, 110, 110, 110],
      [330, 330, 330, 330],
      [660, 550, 565, 330 + 340 + 240],
      [1100, 770, 815, 330 + 340 + 240 + 360 + 240],
    ]);
    expect(comparison.totals.map((t: { summaryCalls: number }) => t.summaryCalls)).toEqual([0, 0, 0, 2]);
    const table = await cli('curve', '--model', 'gpt-4o', '--system-tokens', '100', '--output-tokens', '10', '--tool-tokens', '100', '--steps', '4', '--compare-context', 'mask:1');
    expect(table.stdout).toContain('Σ tok mask:1');
    const bad = await cli('curve', '--model', 'gpt-4o', '--system-tokens', '100', '--output-tokens', '10', '--tool-tokens', '100', '--steps', '4', '--compare-context', 'mask:0');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'--compare-context'");
  });

  it('strategies too long for 120 columns side by side are numbered with a legend above the table; the totals say the numbers', async () => {
    const strategies = 'window:5;mask:10;summary:trigger=40000,keep=5,tokens=2000;hybrid:mask=10,trigger=40000,keep=5,tokens=2000';
    const r = await cli('curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '40', '--cache', 'on', '--compare-context', strategies);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(Math.max(...lines.map((line) => [...line].length))).toBeLessThanOrEqual(120);
    const heading = lines.findIndex((line) => line.includes('side by side'));
    const legend = lines.slice(heading + 1, lines.findIndex((line, i) => i > heading && line.startsWith('step ')));
    expect(legend).toEqual(['#1 full', '#2 window:5', '#3 mask:10', '#4 summary:trigger=40000,keep=5,tokens=2000', '#5 hybrid:mask=10,trigger=40000,keep=5,tokens=2000']);
    expect(r.stdout).toMatch(/^step {2,}Σ tok #1 {2,}Σ tok #2 {2,}Σ tok #3 {2,}Σ tok #4 {2,}Σ tok #5$/m);
    expect(r.stdout).toMatch(/^cost: #1: \$[\d.]+ · #2: /m);
    // Three strategies fit 120 columns (the README's example): named whole, no legend.
    const fits = await cli('curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '40', '--cache', 'on', '--compare-context', 'window:5;mask:10;summary:trigger=40000,keep=5,tokens=2000');
    expect(fits.stdout).toContain('Σ tok summary:trigger=40000,keep=5,tokens=2000');
    expect(fits.stdout).not.toMatch(/^#1 /m);
  });
});

describe('whatif and check show the strategy figures', () => {
  it('whatif: each setting’s cache hits lost and summary calls, as replay gives them under the same brakes', async () => {
    const context = ['--context', 'summary:trigger=10%,keep=2,tokens=800', '--cache', 'on'];
    const whatif = await cli('whatif', TRACE, ...context, '--try', 'max-steps=50', '--format', 'json');
    expect(whatif.code).toBe(0);
    const total = JSON.parse(whatif.stdout).totals[0];
    const replay = JSON.parse((await cli('replay', TRACE, ...context, '--max-steps', '50', '--format', 'json')).stdout).summary;
    expect(total.summaryCalls).toBe(1);
    expect([total.summaryCalls, total.summaryCostUsd, total.strategyCacheLostTokens]).toEqual([replay.summaryCalls, replay.summaryCostUsd, replay.strategyCacheLostTokens]);
    const text = (await cli('whatif', TRACE, '--context', 'window:3', '--cache', 'on', '--try', 'max-steps=50')).stdout;
    expect(text).toMatch(/^max-steps=50: cache hits lost to strategy: [\d,]+ prompt tokens re-sent outside the cached prefix$/m);
    // Full history loses none: no line.
    expect((await cli('whatif', TRACE, '--cache', 'on', '--try', 'max-steps=50')).stdout).not.toContain('cache hits lost');
  });
});

describe('loopcost contexts says its figures are open loop in every format', () => {
  it('a note under the table, a note in JSON, and on stderr beside a CSV', async () => {
    const table = await cli('contexts', TRACE);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.replace(/\s+/g, ' ')).toContain('note: recorded runs replayed open loop: each strategy changes what the calls cost, not what the agent did');
    expect(JSON.parse((await cli('contexts', TRACE, '--format', 'json')).stdout).note).toMatch(/^recorded runs replayed open loop/);
    const csv = await cli('contexts', TRACE, '--format', 'csv');
    expect(csv.code).toBe(0);
    expect(csv.stdout).not.toMatch(/open loop/);
    expect(csv.stderr).toMatch(/^warning: recorded runs replayed open loop/m);
  });
});
