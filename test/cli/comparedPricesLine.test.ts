/**
 * The text prices line of `compare` and `contexts` says what replay's says (review finding: contexts' line gave
 * the table and its dating rule, not the days the runs were priced as of): the same line, from the one prices
 * block (report/pricedModels.ts pricesRecord) and its `note` (report/priceDays.ts), which their JSON carried
 * already. The real case: two shared mini-swe-agent runs, recorded on a dated day.
 */
import { describe, expect, it } from 'vitest';
import { PAIR } from './pastWindowPair.js';
import { cli, cliJson } from './run.js';

/** The prices line of a text report (`prices: …` and the lines it wraps onto), joined. */
async function pricesLine(...argv: string[]): Promise<string> {
  const r = await cli(...argv);
  expect(r.code, r.stderr).toBe(0);
  const line = /^prices: .*(?:\n {8}.*)*/m.exec(r.stdout);
  expect(line, r.stdout).not.toBeNull();
  return line![0].replace(/\n +/g, ' ');
}

describe("compare's and contexts' text prices line", () => {
  it("is replay's: the table, and the days the runs were priced as of", async () => {
    const replayed = await pricesLine('replay', ...PAIR);
    const { note } = (await cliJson('replay', ...PAIR)).prices as { note?: string };
    expect(note).toMatch(/^2 runs priced as of the day recorded \(2026-04-\d\d\)$/);
    expect(replayed).toContain(`; ${note}`);
    expect(await pricesLine('contexts', ...PAIR)).toBe(replayed);
    expect(await pricesLine('compare', ...PAIR)).toBe(replayed);
  });
});
