/**
 * The settings line says the brakes the runs took: with scenario files among the inputs their runs take
 * each file's own brakes (the flags on top), so the line names them (or, when the files differ, says they
 * are each file's own, listed below) instead of `brakes none`; a trace file's run (its CSV row) took the flags'.
 */
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from './run.js';

const RECORDED = 'scenarios/recorded-pair.jsonl';
const FLIGHT = 'scenarios/flight-search.yaml';
const FILE_BRAKES = 'max-steps=12,max-cost=0.5,budget-mode=check,timeout=120,max-repeat=3,repeat-mode=total';

/** The text with its wrapping undone (a long part wraps within itself, after a comma). */
const flat = (text: string) => text.replace(/,\s*\n\s*/g, ',').replace(/\s*\n\s*/g, ' ');

describe("the settings line names scenario files' brakes", () => {
  it('recorded and synthetic runs: the flags\' brakes, then what the synthetic runs took', async () => {
    const r = await cli('replay', RECORDED, FLIGHT);
    expect(r.code, r.stderr).toBe(0);
    expect(flat(r.stdout)).toContain(`settings: brakes none (synthetic: ${FILE_BRAKES}) ·`);
    const json = JSON.parse((await cli('replay', RECORDED, FLIGHT, '--format', 'json')).stdout);
    expect(json.settings.spec.brakes).toBe(`none (synthetic: ${FILE_BRAKES})`);
  });

  it("files with different brakes: each file's own, listed below (on each file's line)", async () => {
    const own = oneEntryScenario(tempDir(), 'own.yaml', { brakes: '{ max-steps: 7 }' });
    const r = await cli('replay', RECORDED, FLIGHT, own);
    expect(r.code, r.stderr).toBe(0);
    const text = flat(r.stdout);
    expect(text).toContain("settings: brakes none (synthetic: each scenario file's own, listed below) ·");
    expect(text).toContain(`synthetic: ${own} (100 runs, seed 1) · brakes max-steps=7`);
    const alone = flat((await cli('replay', FLIGHT, own)).stdout);
    expect(alone).toContain("settings: brakes each scenario file's own, listed below ·");
  });

  it("a trace file's CSV row says the brakes it took, not the synthetic runs'", async () => {
    const r = await cli('replay', RECORDED, FLIGHT, '--format', 'csv');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const recorded = lines.find((line) => line.startsWith(`${RECORDED}#`))!;
    expect(recorded).toContain(',none,');
    expect(recorded).not.toContain('synthetic:');
    expect(lines.find((line) => line.startsWith(`${FLIGHT}#`))).toContain(`"${FILE_BRAKES}"`);
  });

  it('says the flags\' brakes alone when the files take the same', async () => {
    const r = await cli('replay', RECORDED, FLIGHT, '--preset', 'none', '--max-steps', '9');
    expect(flat(r.stdout)).toContain('settings: brakes max-steps=9 · context full');
  });
});
