/**
 * The `recorded_strategy_rebuilt` warning as `contexts` says it. Review finding: contexts said the one message
 * every command says, whose cache clause speaks of replaying "with the cache as recorded" (`--cache`'s default);
 * contexts' rows run under its cache modes, on or off, never the cache as recorded. Now the one message
 * (report/recordedStrategyWarning.ts) takes the cache modes and says what each does with the rebuilt prompts;
 * the rest of it is word for word what replay says.
 */
import { describe, expect, it } from 'vitest';
import { liveRecording } from './contextsLiveRecordings.js';
import { cliJson, tempDir } from './run.js';

type Warning = { code: string; message: string };
type Row = { strategy: string; cache: string; cachedInputTokens: number };

const rebuiltOf = (warnings: readonly Warning[]) => warnings.filter((w) => w.code === 'recorded_strategy_rebuilt').map((w) => w.message);

const ON = "under --cache-modes on each rebuilt call reads the cache as the provider's rule serves the rebuilt prompts, as every call does";
const OFF = 'under --cache-modes off no call reads the cache';

describe("contexts' recorded_strategy_rebuilt speaks of its cache modes, not of the cache as recorded", () => {
  it("replay's words up to the cache, then what each cache mode given does, then the rows that rebuilt the run", async () => {
    const dir = tempDir();
    const files = [liveRecording(dir, 'windowed.jsonl', 'window:1'), liveRecording(dir, 'plain.jsonl', undefined)];
    const [replayed] = rebuiltOf((await cliJson('replay', ...files, '--model', 'gpt-4o-mini', '--context', 'window:2')).warnings);
    const cacheAt = replayed!.indexOf('with the cache as recorded');
    expect(cacheAt).toBeGreaterThan(0);
    const shared = replayed!.slice(0, cacheAt);
    expect(shared).toMatch(/their recorded cache reads were of the prompts that strategy shaped, so $/);
    const said = async (modes: string) => {
      const report = await cliJson('contexts', ...files, '--compare-context', 'full;window:2', '--cache-modes', modes, '--model', 'gpt-4o-mini');
      return { rebuilt: rebuiltOf(report.warnings), rows: report.rows as Row[] };
    };
    const both = await said('on,off');
    expect(both.rebuilt).toEqual([`${shared}no row keeps them: ${ON}; ${OFF}; rebuilt in the rows full, window:2`]);
    // What it says of the off rows is so: no row under off reads the cache.
    expect(both.rows.filter((r) => r.cache === 'off').map((r) => r.cachedInputTokens)).toEqual([0, 0, 0]);
    expect((await said('off,on')).rebuilt).toEqual([`${shared}no row keeps them: ${OFF}; ${ON}; rebuilt in the rows full, window:2`]);
    expect((await said('on')).rebuilt).toEqual([`${shared}no row keeps them: ${ON}; rebuilt in the rows full, window:2`]);
    expect((await said('off')).rebuilt).toEqual([`${shared}no row keeps them: ${OFF}; rebuilt in the rows full, window:2`]);
    for (const modes of ['on,off', 'on', 'off']) expect((await said(modes)).rebuilt[0]).not.toContain('cache as recorded');
  });
});
