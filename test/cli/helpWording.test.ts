// Options shared from one definition say what they do in each command's own terms: generate writes
// synthetic runs from one scenario file (no recording day), prices prices a model (no runs), and
// contexts has no per-run rows. `prices --prices-as-of` past the table's release day says the table
// cannot know later prices.
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

/** The help of `argv`, its lines joined (commander wraps at the terminal's width). */
async function help(...argv: string[]): Promise<string> {
  return (await cli(...argv, '--help')).stdout.replace(/\s+/g, ' ');
}

describe('help of shared options', () => {
  it('generate: no recording day, one scenario file', async () => {
    const text = await help('generate');
    expect(text).not.toContain('the day each run was recorded');
    expect(text).not.toContain('per scenario file');
    expect(text).toContain("--prices-as-of <YYYY-MM-DD> read the bundled table's dated prices as of this day for every run written (default: the table's release day (synthetic runs have no recording day))");
    expect(text).toContain('--runs <n> synthetic runs to write');
  });

  it('prices: no runs', async () => {
    const text = await help('prices');
    expect(text).not.toMatch(/for every run|each run was recorded/);
    expect(text).toContain("--prices-as-of <YYYY-MM-DD> read the bundled table's dated prices as of this day (default: the table's release day: the latest prices it knows)");
  });

  it('replay keeps the recorded-runs wording', async () => {
    expect(await help('replay')).toContain('as of this day for every run (default: the day each run was recorded, else the table\'s release day)');
  });

  it("sweep and calibrate: a scenario file's own context and cache are its runs' unless a flag or a grid axis gives them", async () => {
    for (const command of ['sweep', 'calibrate']) {
      const text = await help(command);
      expect(text).toContain("the file's own context.context");
      expect(text).toContain("--cache <mode> prompt caching: on | off (default: for a scenario file's runs, the file's own context.cache; else as recorded for recorded traces, off for synthetic ones (a --grid axis gives each configuration its own))");
    }
    expect(await help('replay')).toContain("the file's own context.cache");
  });

  it('contexts: --per-run is not offered, and refused for what it is', async () => {
    expect(await help('contexts')).not.toContain('--per-run');
    const r = await cli('contexts', 'test/fixtures', '--per-run');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("field '--per-run': does nothing: contexts' report has a row per context strategy and cache mode, not per run");
  });
});

describe('prices --prices-as-of past the release day', () => {
  it('says the table holds no price announced after its release day', async () => {
    const r = await cli('prices', 'gpt-4o', '--prices-as-of', '2099-01-01');
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toMatch(/note: 2099-01-01 is after the table's release day \d{4}-\d\d-\d\d: prices announced since are not in it, so these are the latest it knows/);
  });

  it('says nothing for a day the table covers', async () => {
    const r = await cli('prices', 'o3', '--prices-as-of', '2025-06-01');
    expect(r.stdout).not.toContain('note:');
  });
});
