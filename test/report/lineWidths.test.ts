// "Every table fits 120 columns": the lines around the tables too — a session tree's stop line and fit's
// description line wrap under their label instead of running past the width.
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';

const SESSION = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';

function widest(text: string): number {
  return Math.max(...text.split('\n').map((line) => [...line].length));
}

describe('lines around tables fit 120 columns', () => {
  it('a session tree stopped in predict mode: the session line wraps', async () => {
    const r = await cli('replay', '--tree', SESSION, '--max-cost', '0.05', '--budget-mode', 'predict');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^session [0-9a-f-]+: budget \(\$[0-9.]+ spent; the next call \(up to \$/m);
    expect(widest(r.stdout)).toBeLessThanOrEqual(120);
  });

  it('fit --report: the description line wraps', async () => {
    const r = await cli('fit', '../shared/traces/mini-swe-agent', '--prices', 'test/fixtures/prices/deepseek-recorded.json', '--report', '--runs', '200');
    expect(r.code).toBe(0);
    // With the profile on stdout (no --out), the report is on stderr.
    const report = `\n${r.stderr}`.slice(`\n${r.stderr}`.indexOf('\nrecorded: ') + 1);
    expect(report).toMatch(/^recorded: 38 runs replayed as recorded; /);
    expect(widest(report)).toBeLessThanOrEqual(120);
  });
});
