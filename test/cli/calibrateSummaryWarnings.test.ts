/**
 * `calibrate` under a summary strategy says what its summaries did as `sweep` says it, from the same function
 * (summaryCallWarning.ts configurationSummaryWarnings, which sweepSummaryWarnings calls, over each configuration's
 * strategy, runs and summary calls): a scenario file whose own context summarises, and recorded runs under
 * `--context summary:…`, whose trigger no prompt passes, warn `summary_none` (before, calibrate gave no summary warning while sweep and replay did); the
 * library's calibrate returns the same warning. A strategy whose summaries happen says nothing.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';
import { summarisingFile, summaryWarnings, warningsOf } from './summaryWarningHelpers.js';
import { calibrate, loadPriceTable, readTraces } from '../../src/index.js';
import { parseContextSpec } from '../../src/context/strategy.js';


describe('calibrate: what a summary strategy did, as sweep says it', () => {
  it("a scenario file's own summary strategy that never summarises: summary_none, sweep's words", async () => {
    const file = summarisingFile(100000);
    const calibrated = summaryWarnings(await warningsOf('calibrate', file, '--grid', 'max-repeat=2,3'));
    expect(calibrated.map((w) => w.code)).toEqual(['summary_none']);
    expect(calibrated[0]!.message).toMatch(/^context summary:trigger=100000,keep=2,tokens=80: no summary call in 30 of 30 runs under each of its 2 configurations: /);
    expect(calibrated).toEqual(summaryWarnings(await warningsOf('sweep', file, '--grid', 'max-repeat=2,3')));
    const json = JSON.parse((await cli('calibrate', file, '--grid', 'max-repeat=2,3', '--format', 'json')).stdout);
    expect(json.configurations.map((c: { summaryCalls?: number }) => c.summaryCalls)).toEqual([undefined, undefined]);
  });

  it('summaries that happen: no warning, and each configuration counts its summary calls', async () => {
    const file = summarisingFile(3000);
    const json = JSON.parse((await cli('calibrate', file, '--grid', 'max-repeat=2,3', '--format', 'json')).stdout);
    expect(summaryWarnings(json.warnings)).toEqual([]);
    for (const c of json.configurations) expect(c.summaryCalls).toBeGreaterThan(0);
  });

  it('generated traces under --context summary:…, the command and the library alike', async () => {
    const generated = join(tempDir(), 'gen.jsonl');
    expect((await cli('generate', 'scenarios/flight-search.yaml', '--runs', '8', '--out', generated)).code).toBe(0);
    const spec = 'summary:trigger=100000,keep=2,tokens=80';
    const said = summaryWarnings(await warningsOf('calibrate', generated, '--context', spec, '--grid', 'max-repeat=2,3'));
    expect(said.map((w) => w.code)).toEqual(['summary_none']);
    expect(said[0]!.message).toContain('no summary call in 8 of 8 runs under each of its 2 configurations');
    const library = calibrate(await readTraces([generated]), { prices: loadPriceTable(), strategy: parseContextSpec(spec), configurations: [{ maxRepeat: 2 }, { maxRepeat: 3 }] });
    expect(summaryWarnings(library.warnings)).toEqual(said);
  });
});
