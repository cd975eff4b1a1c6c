/**
 * The settings line says the context the runs took, as it says their brakes (runsBrakes): a scenario file's
 * runs take the file's own context unless `--context` is given. It used to say `context full` (the
 * command's default) whatever the files set — `replay flight-search.yaml weekly-report.yaml`, where
 * weekly-report keeps a window of 3 steps, or weekly-report alone — while each file's line said otherwise.
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';
import { parseCsv } from '../cli/csv.js';
import { reportSettings } from '../../src/report/settings.js';
import { NO_BRAKES } from '../../src/brakes/config.js';

const FLIGHT = 'scenarios/flight-search.yaml';
const WEEKLY = 'scenarios/weekly-report.yaml'; // context: window:3
const PAIR = 'scenarios/recorded-pair.jsonl';
const settingsLine = (text: string) => text.match(/^settings: [^]*?(?=\n\S)/m)?.[0].replace(/\s+/g, ' ');

describe('context: what the runs took', () => {
  it("files whose contexts differ: each scenario file's own, each named on its own line", async () => {
    const r = await cli('replay', FLIGHT, WEEKLY, '--runs', '2');
    expect(r.code, r.stderr).toBe(0);
    expect(settingsLine(r.stdout)).toContain(" · context each scenario file's own, listed below · ");
    expect(r.stdout).toMatch(/^synthetic: scenarios\/flight-search\.yaml \(2 runs, seed 1\) · context full ·/m);
    expect(r.stdout).toMatch(/^synthetic: scenarios\/weekly-report\.yaml \(2 runs, seed 1\) · context window:3 ·/m);
    const json = JSON.parse((await cli('replay', FLIGHT, WEEKLY, '--runs', '2', '--format', 'json')).stdout);
    expect(json.settings.spec.context).toBe("each scenario file's own, listed below");
    const whatif = await cli('whatif', FLIGHT, WEEKLY, '--runs', '2', '--try', 'max-steps=5');
    expect(settingsLine(whatif.stdout)).toContain(" · context each scenario file's own, listed below · ");
  });

  it("one file's own context is the runs' context; --context given is every run's", async () => {
    expect(settingsLine((await cli('replay', WEEKLY, '--runs', '2')).stdout)).toContain(' · context window:3 · ');
    expect(settingsLine((await cli('replay', FLIGHT, WEEKLY, '--runs', '2', '--context', 'window:5')).stdout)).toContain(' · context window:5 · ');
  });

  it("with recorded runs: the flags' context (synthetic: …), and a recorded run's CSV row says its own", async () => {
    const r = await cli('replay', PAIR, WEEKLY, '--runs', '2');
    expect(settingsLine(r.stdout)).toContain(' · context full (synthetic: window:3) · ');
    const [head, ...rows] = parseCsv((await cli('replay', PAIR, WEEKLY, '--runs', '2', '--format', 'csv')).stdout);
    const [source, context] = [head!.indexOf('source'), head!.indexOf('context')];
    const contexts = (file: string) => rows.filter((row) => row[source]!.startsWith(`${file}#`)).map((row) => row[context]);
    expect(contexts(PAIR)).toEqual(['full', 'full']);
    expect(contexts(WEEKLY)).toEqual(['window:3', 'window:3']);
  });

  it('a sweep gives its synthetic runs only a cache (its configurations replace the context): the context is the settings\' own', () => {
    const took = { recordedCaches: [], scenarios: [{ strategy: { cache: 'off' as const } }] };
    expect(reportSettings({ brakes: NO_BRAKES, strategy: { kind: 'full' }, took }).context).toBe('full');
  });
});
