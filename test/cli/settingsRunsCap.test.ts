/**
 * The settings line names the tool-result cap the runs took, by the rule that decides the strategy they took
 * (runsTook.ts runsContext on runsStrategy): a scenario file that adds only `tool-result-cap: 500` under
 * `--context summary:…` used to print `context summary:… · cache off` in replay (beside recorded runs), sweep,
 * calibrate and project, while sweep's rows said `toolResultCap 500`. Beside recorded runs (no cap) the runs took
 * two caps: the settings line and sweep's rows now say so (`(synthetic: … · tool-result-cap 500)`, no one cap),
 * where sweep's rows carried one cap and its summary warning named a strategy the synthetic runs did not take.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.js';
import { cli, cliJson, tempDir } from './run.js';
import { summaryWarnings, warningsOf } from './summaryWarningHelpers.js';

const SPEC = 'summary:trigger=100000,keep=2,tokens=80';
const RECORDED = 'scenarios/long-exploration.jsonl';
const BOTH = `${SPEC} (synthetic: ${SPEC} · tool-result-cap 500)`;
const settingsLine = (text: string) => text.match(/^settings: [^]*?(?=\n\S)/m)?.[0].replace(/\s+/g, ' ');

/** flight-search.yaml with its own tool-result cap and no context of its own. */
function cappedFile(): string {
  const file = join(tempDir(), 'flight-capped.yaml');
  const text = readFileSync('scenarios/flight-search.yaml', 'utf8').replace('brakes: { preset: reference }', 'brakes: { preset: reference }\ncontext: { tool-result-cap: 500 }');
  writeFileSync(file, text);
  return file;
}

describe('the settings line names the tool-result cap the runs took', () => {
  it("a file's own cap under --context summary:…: replay, sweep, calibrate and project name it, text and JSON", async () => {
    const file = cappedFile();
    for (const command of ['replay', 'sweep', 'calibrate', 'project']) {
      const args = [command, file, '--context', SPEC, '--runs', '4'];
      const r = await cli(...args);
      expect(r.code, r.stderr).toBe(0);
      expect(settingsLine(r.stdout), command).toContain(` · context ${SPEC} · tool-result-cap 500 · cache off · `);
      const { settings } = await cliJson(...args);
      expect([command, settings.context, settings.toolResultCap]).toEqual([command, SPEC, '500']);
    }
  });

  it('recorded runs beside it took no cap: every settings line says both, no one cap; a recorded run\'s CSV row its own', async () => {
    const file = cappedFile();
    for (const command of ['replay', 'sweep', 'calibrate']) {
      const args = [command, file, RECORDED, '--context', SPEC, '--runs', '4'];
      const r = await cli(...args);
      expect(settingsLine(r.stdout), command).toContain(` · context ${BOTH} · cache off · `);
      const { settings } = await cliJson(...args);
      expect([command, settings.context, settings.toolResultCap]).toEqual([command, BOTH, undefined]);
    }
    const [head, ...rows] = parseCsv((await cli('replay', file, RECORDED, '--context', SPEC, '--runs', '2', '--format', 'csv')).stdout);
    const at = (name: string) => head!.indexOf(name);
    const recorded = rows.find((row) => row[at('source')]!.startsWith(RECORDED))!;
    expect([recorded[at('context')], recorded[at('toolResultCap')]]).toEqual([SPEC, '']);
    const synthetic = rows.find((row) => row[at('source')]!.startsWith(file))!;
    expect([synthetic[at('context')], synthetic[at('toolResultCap')]]).toEqual([SPEC, '500']);
  });

  it("sweep's rows carry no one cap there, and name no strategy in a summary warning, as calibrate; a merge alike", async () => {
    const file = cappedFile();
    const args = [file, RECORDED, '--context', SPEC, '--grid', 'max-repeat=2,3', '--runs', '4'];
    const swept = await cliJson('sweep', ...args);
    expect(swept.configurations.map((row: { context: string; toolResultCap?: number }) => [row.context, row.toolResultCap])).toEqual([[BOTH, undefined], [BOTH, undefined]]);
    expect(summaryWarnings(swept.warnings)).toEqual([]);
    expect(summaryWarnings(await warningsOf('calibrate', ...args))).toEqual([]);
    const dir = tempDir();
    for (const k of [1, 2]) expect((await cli('sweep', ...args, '--shard', `${k}/2`, '--out', join(dir, `s${k}.json`))).code).toBe(0);
    expect(summaryWarnings(await warningsOf('merge', join(dir, 's1.json'), join(dir, 's2.json')))).toEqual([]);
  });

  it('shards written before (rows with one numeric cap and the bare spec) still merge, read as they say', async () => {
    const dir = tempDir();
    const args = [cappedFile(), RECORDED, '--context', SPEC, '--grid', 'max-repeat=2,3', '--runs', '4'];
    for (const k of [1, 2]) {
      const out = join(dir, `s${k}.json`);
      expect((await cli('sweep', ...args, '--shard', `${k}/2`, '--out', out)).code).toBe(0);
      const shard = JSON.parse(readFileSync(out, 'utf8'));
      shard.settings.context = SPEC;
      for (const row of shard.configurations) Object.assign(row, { context: SPEC, toolResultCap: 500 });
      writeFileSync(out, JSON.stringify(shard));
    }
    const merged = await cliJson('merge', join(dir, 's1.json'), join(dir, 's2.json'));
    expect(merged.configurations.map((row: { toolResultCap?: number }) => row.toolResultCap)).toEqual([500, 500]);
    const said = summaryWarnings(merged.warnings);
    expect(said.map((w) => w.code)).toEqual(['summary_none']);
    expect(said[0]!.message.startsWith(`context ${SPEC} · tool-result-cap 500: no summary call in `)).toBe(true);
  });
});
