/**
 * One script reads every command's JSON: `settings` gives `brakes`, `context`, `cache` and `latency` as
 * strings (their flags' syntax) and `prices` names the table (`name`, `version`, `hash`, …) in replay (and
 * replay --tree) as in sweep, whatif, project and calibrate. Replay's own fields stay beside them: the
 * brakes and context as objects (`settings.brakeSettings`, `settings.contextSettings`: formerly
 * `settings.brakes` and `settings.context`), `settings.spec` and `prices.source` (the same again), the models.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

type Json = { settings: Record<string, unknown>; prices: Record<string, unknown> };
const json = async (...argv: string[]): Promise<Json> => {
  const r = await cli(...argv, '--format', 'json');
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as Json;
};
const COMMON = ['brakes', 'context', 'cache', 'latency'] as const;
const common = (report: Json) => ({ settings: Object.fromEntries(COMMON.map((key) => [key, report.settings[key]])), prices: { name: report.prices.name, version: report.prices.version, hash: report.prices.hash, releasedOn: report.prices.releasedOn } });

describe('replay JSON: the settings and prices every command gives', () => {
  it('replay of a scenario file says what project and sweep of it say', async () => {
    const args = ['scenarios/production-mix.yaml', '--runs', '5', '--max-steps', '12'];
    const replay = await json('replay', ...args);
    const project = await json('project', ...args, '--days', '1', '--trials', '2');
    expect(common(replay)).toEqual(common(project));
    for (const key of COMMON) expect(typeof replay.settings[key], key).toBe('string');
    expect(replay.settings.brakes).toBe('max-steps=12,max-cost=0.5,budget-mode=check,timeout=120,max-repeat=3,repeat-mode=total');
    const sweep = await json('sweep', 'scenarios/production-mix.yaml', '--runs', '5', '--grid', 'max-steps=12');
    expect(common(replay)).toEqual(common(sweep));
    // Replay's own, kept: the same settings as objects and as `spec`, the table as `source`.
    expect(replay.settings.brakeSettings).toEqual({ maxSteps: 12, maxCostUsd: 0.5, budgetMode: 'check', timeoutSeconds: 120, maxRepeat: 3, repeatMode: 'total' });
    expect(replay.settings.contextSettings).toEqual({ context: 'full', cache: 'on' });
    expect(replay.settings.spec).toEqual(Object.fromEntries(COMMON.map((key) => [key, replay.settings[key]])));
    expect(replay.prices.source).toEqual(project.prices.source);
    expect(Array.isArray(replay.prices.models)).toBe(true);
  });

  it('replay of recorded runs, and replay --tree, as whatif of them', async () => {
    const replay = await json('replay', 'scenarios/recorded-pair.jsonl', '--preset', 'recorded');
    const whatif = await json('whatif', 'scenarios/recorded-pair.jsonl', '--try', 'max-steps=5');
    expect(common(replay)).toEqual(common(whatif));
    expect(replay.settings.brakeSettings).toMatchObject({ preset: 'recorded: each run with its own recorded limits' });
    const tree = await json('replay', 'scenarios/recorded-pair.jsonl', '--tree', '--max-cost', '1');
    expect(common(tree).prices).toEqual(common(whatif).prices);
    expect(common(tree).settings).toEqual({ brakes: 'max-cost=1,budget-mode=check', context: 'full', cache: 'as recorded', latency: 'as recorded' });
    expect(tree.settings.spec).toEqual(common(tree).settings);
    expect(tree.prices.source).toEqual(whatif.prices.source);
  });
});
