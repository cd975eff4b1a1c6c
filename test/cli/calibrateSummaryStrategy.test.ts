/**
 * calibrate's summary warnings take each configuration's context strategy itself (the one its settings line
 * names), not its spec written out and parsed back: under a tool-result cap the command says the strategy as
 * the library's calibrate (and replay) say it, cap and all; where the runs took several strategies (recorded
 * runs under the flags' beside a scenario file's own), none is named and no summary warning is given.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';
import { summarisingFile, summaryWarnings, warningsOf } from './summaryWarningHelpers.js';
import { calibrate, loadPriceTable, readTraces } from '../../src/index.js';
import { parseContextSpec } from '../../src/context/strategy.js';

const SPEC = 'summary:trigger=100000,keep=2,tokens=80';

describe('calibrate: the summary warnings of each configuration\'s own strategy', () => {
  it('under --tool-result-cap: the command says what the library says, the cap named', async () => {
    const generated = join(tempDir(), 'gen.jsonl');
    expect((await cli('generate', 'scenarios/flight-search.yaml', '--runs', '6', '--out', generated)).code).toBe(0);
    const said = summaryWarnings(await warningsOf('calibrate', generated, '--context', SPEC, '--tool-result-cap', '500', '--grid', 'max-repeat=2,3'));
    expect(said.map((w) => w.code)).toEqual(['summary_none']);
    expect(said[0]!.message).toMatch(/^context summary:trigger=100000,keep=2,tokens=80 · tool-result-cap 500: no summary call in 6 of 6 runs under each of its 2 configurations/);
    const library = calibrate(await readTraces([generated]), { prices: loadPriceTable(), strategy: { ...parseContextSpec(SPEC), toolResultCap: 500 }, configurations: [{ maxRepeat: 2 }, { maxRepeat: 3 }] });
    expect(summaryWarnings(library.warnings)).toEqual(said);
    // sweep names it the same way (its rows carry the cap beside the context spec)
    expect(summaryWarnings(await warningsOf('sweep', generated, '--context', SPEC, '--tool-result-cap', '500', '--grid', 'max-repeat=2,3'))).toEqual(said);
  });

  it("recorded runs under the flags' context beside a file's own summary strategy: no one strategy, no summary warning", async () => {
    const file = summarisingFile(100000);
    const said = await warningsOf('calibrate', file, 'scenarios/long-exploration.jsonl', '--grid', 'max-repeat=2,3');
    expect(summaryWarnings(said)).toEqual([]);
    // The file alone: its own strategy is every run's, and it warns.
    expect(summaryWarnings(await warningsOf('calibrate', file, '--grid', 'max-repeat=2,3')).map((w) => w.code)).toEqual(['summary_none']);
  });
});
