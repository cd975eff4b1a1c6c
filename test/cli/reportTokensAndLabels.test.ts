// Text tables show token counts as curve does (`1,749,904`; JSON and CSV keep the numbers), contexts keeps
// long strategies apart with a numbered legend instead of cutting them to one label, and a run whose every
// call failed at the provider (mini-swe-agent's first-call timeouts) is marked and explained.
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const FIXTURES = 'test/fixtures/mini-swe-agent';
const TIMEOUT_RUN = `${FIXTURES}/deepseek_reasoner_dev__pvlib__pvlib-python-1154.traj.json`;
const ERROR_RUN = `${FIXTURES}/deepseek_reasoner_dev__pvlib__pvlib-python-1606.traj.json`;
const CLOCK_SKEW_RUN = `${FIXTURES}/django__django-12470.clock-skew.traj.json.gz`;
const LONG = 'summary:trigger=40000,keep=5,tokens=2000;hybrid:mask=10,trigger=40000,keep=5,tokens=2000';

describe('contexts labels and token counts', () => {
  it('two long strategies stay distinct: numbered, with a legend above the table', async () => {
    const r = await cli('contexts', CLOCK_SKEW_RUN, '--compare-context', `full;${LONG}`);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('…');
    expect(r.stdout).toMatch(/^#1 full\n#2 summary:trigger=40000,keep=5,tokens=2000\n#3 hybrid:mask=10,trigger=40000,keep=5,tokens=2000\n/);
    expect(r.stdout).toMatch(/\n#2 +on +1 /);
    expect(r.stdout).toMatch(/\n#3 +off +1 /);
  });

  it('short strategies keep their names', async () => {
    const r = await cli('contexts', CLOCK_SKEW_RUN, '--compare-context', 'full;window:5');
    expect(r.stdout).toMatch(/\nwindow:5 +on +1 /);
    expect(r.stdout).not.toContain('#1');
  });

  it('token counts have thousands separators in the table, raw numbers in JSON', async () => {
    const table = await cli('contexts', CLOCK_SKEW_RUN, '--compare-context', 'full');
    const json = JSON.parse((await cli('contexts', CLOCK_SKEW_RUN, '--compare-context', 'full', '--format', 'json')).stdout);
    const input = json.rows[0].inputTokens as number;
    expect(input).toBeGreaterThan(999);
    expect(table.stdout).toContain(` ${input.toLocaleString('en-US')} `);
    expect(table.stdout).not.toContain(` ${input} `);
  });
});

describe('replay per-run rows', () => {
  it('token counts have thousands separators', async () => {
    const r = await cli('replay', CLOCK_SKEW_RUN, '--per-run', '--format', 'json');
    const run = JSON.parse(r.stdout).runs[0];
    const table = (await cli('replay', CLOCK_SKEW_RUN, '--per-run')).stdout;
    expect(table).toContain(` ${(run.inputTokens as number).toLocaleString('en-US')} `);
  });

  it('a run whose only call failed at the provider is marked and explained under the table', async () => {
    const r = await cli('replay', TIMEOUT_RUN, ERROR_RUN, '--per-run');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n').slice(r.stdout.split('\n').findIndex((line) => line.startsWith('run ')));
    expect(lines.find((line) => line.includes('1154'))).toMatch(/trace_end \* +1 +0 +0 +\$0/);
    expect(lines.find((line) => line.includes('1606'))).toMatch(/trace_end +5 /);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('* every call of the run failed at the provider (Timeout) and the recording ends there: a failed call counts as a step, and nothing was billed');
  });

  it('no mark and no line when every run made a call that answered', async () => {
    const r = await cli('replay', ERROR_RUN, '--per-run');
    expect(r.stdout).not.toContain('failed at the provider');
    expect(r.stdout).not.toContain(' * ');
  });
});
