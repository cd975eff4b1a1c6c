/**
 * Amounts past what loopcost counts exactly (audit round 2, item 1): a cost limit above $9,007.199254740991
 * (2^53 − 1 picodollars, the most one run may cost: kernel/cost.ts costOutOfRange), a scenario's token
 * sizes past 2^53 − 1 (the trace cap), a draw past it at run time, an expectation or a baseline figure past
 * what a run can cost: each is exit 2 naming where it was given, never `RangeError: … to a BigInt`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maxCostPico } from '../../src/flags/settingsFlags.js';
import { drawCount, DrawOutOfRange } from '../../src/synthetic/distributions.js';
import { Rng } from '../../src/synthetic/random.js';
import { cli, oneEntryScenario, tempDir } from './run.js';

const TRACE = [
  '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}',
  '{"type":"call","outputTokens":40,"inputTokens":100}',
  '{"type":"end","outcome":"completed"}',
].join('\n');
const LIMIT = /\$9,007\.199254740991 \(2\^53 − 1 picodollars\)/;

const dir = tempDir();
const G = join(dir, 'g.jsonl');
writeFileSync(G, TRACE + '\n');

function expectUserError(r: { code: number; stderr: string }, message: RegExp): void {
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/internal error|RangeError|BigInt|\n\s+at /);
  expect(r.code).toBe(2);
}

/** A one-entry synthetic scenario in this file's directory. */
const scenario = (name: string, top: Record<string, string>, entry: Record<string, string> = {}): string => oneEntryScenario(dir, name, top, entry);
/** A model the bundled table gives no context window (@pydantic/genai-prices 0.1.8): no provider refusal bounds its prompts. */
const WINDOWLESS = 'gemini-2.5-pro';

describe('a cost limit past $9,007.199254740991 is refused where it was given', () => {
  it('the parser every cost limit goes through holds the limit exactly', () => {
    expect(maxCostPico('--max-cost', '9007.199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(maxCostPico('--max-cost', '0.5')).toBe(500_000_000_000);
    expect(() => maxCostPico('--max-cost', '9007.2')).toThrow(/'9007\.2' is too large: at most \$9,007\.199254740991/);
  });

  it('--max-cost on every command that takes it (1e296 used to pass, 1e297 to crash)', async () => {
    for (const value of ['1e296', '1e297', '9007.2']) expectUserError(await cli('replay', G, '--max-cost', value), new RegExp(`field '--max-cost': '${value}' is too large: at most ${LIMIT.source}`));
    const sc = scenario('plain.yaml', {});
    for (const args of [['calibrate', sc, '--runs', '2'], ['project', sc, '--runs', '2'], ['contexts', G], ['check', sc, '--runs', '2'], ['sweep', G, '--grid', 'max-steps=2']]) {
      expectUserError(await cli(...args, '--max-cost', '1e300'), /field '--max-cost': '1e300' is too large: at most \$9,007/);
    }
    const atLimit = await cli('replay', G, '--max-cost', '9007.199254740991', '--format', 'json');
    expect(atLimit.code, atLimit.stderr).toBe(0);
    expect(JSON.parse(atLimit.stdout).settings.brakeSettings).toMatchObject({ maxCostUsd: 9007.199254740991 });
  });

  it('--try, --grid, a scenario file and --subagent-max-cost name their own place', async () => {
    expectUserError(await cli('whatif', G, '--try', 'max-cost=1e300'), /field '--try max-cost': '1e300' is too large: at most \$9,007/);
    expectUserError(await cli('sweep', G, '--grid', 'max-cost=0.1,1e300'), /field '--grid max-cost': '1e300' is too large: at most \$9,007/);
    const sc = scenario('brakes.yaml', { brakes: '{ max-cost: 1e300 }' });
    for (const command of ['replay', 'generate', 'check']) expectUserError(await cli(command, sc), /brakes\.yaml:line 4 field 'brakes\.max-cost': '1e\+300' is too large: at most \$9,007/);
    expectUserError(await cli('replay', G, '--tree', '--subagent-max-cost', '1e300'), /field '--subagent-max-cost': '1e300' is too large: at most \$9,007/);
    expectUserError(await cli('sweep', G, '--tree', '--grid', 'subagent-max-cost=1e300'), /field '--grid subagent-max-cost': '1e300' is too large: at most/);
  });
});

describe("a scenario's token sizes stop where a trace's counts do (2^53 − 1)", () => {
  const COMMANDS = [['replay', '--runs', '1'], ['generate', '--runs', '1'], ['sweep', '--runs', '1', '--grid', 'max-steps=2'], ['calibrate', '--runs', '1'], ['project', '--runs', '1'], ['check', '--runs', '1']];
  const cases: [string, Record<string, string>, Record<string, string>, RegExp][] = [
    ['systemTokens', { systemTokens: '1e305' }, {}, /line 3 field 'systemTokens': is 1e305: must be at most 9007199254740991 \(2\^53 − 1\)/],
    ['outputTokens', {}, { outputTokens: '1e305' }, /line 8 field 'population\[0\]\.outputTokens': is 1e305: must be at most 9007199254740991/],
    ['a lognormal p95', {}, { outputTokens: '{ kind: lognormal, median: 10, p95: 1e300 }' }, /field 'population\[0\]\.outputTokens\.p95': is 1e300: must be at most 9007199254740991/],
    ['runsPerDay', { runsPerDay: '1e300' }, {}, /field 'runsPerDay': is 1e300: must be at most 9007199254740991/],
  ];
  for (const [what, top, entry, message] of cases) {
    it(`${what} past the cap is refused by every command`, async () => {
      const sc = scenario(`cap-${what.replace(/ /g, '-')}.yaml`, top, entry);
      for (const [command, ...rest] of COMMANDS) expectUserError(await cli(command!, sc, ...rest), message);
    });
  }

  it('at the cap a size is taken (the run then costs too much: the engine says so)', async () => {
    // An output at the cap, asked for with a max_tokens as large (a provider cuts a longer answer at the
    // max_tokens sent), on a model the table gives no window (one with a window refuses prompt + max_tokens past it).
    const sc = scenario('at-cap.yaml', { model: WINDOWLESS }, { outputTokens: String(Number.MAX_SAFE_INTEGER) });
    expectUserError(await cli('replay', sc, '--runs', '1', '--max-output-tokens', String(Number.MAX_SAFE_INTEGER)), /one run costs more than \$9,007/);
  });

  it('a synthetic run past the cost cap names the scenario file, its entry and the run, in every command', async () => {
    // An expectation that holds: check refuses a scenario with none before running it.
    const sc = scenario('dear.yaml', { model: WINDOWLESS, expect: '{ runs: { steps: { min: 0 } } }' }, { outputTokens: '1000000000000' });
    // Each asks for that output (max_tokens 1e12): whatif in its setting, the others by the flag.
    const asks = ['--max-output-tokens', '1000000000000'];
    const commands = [['replay', ...asks], ['sweep', '--grid', 'max-steps=2,5', ...asks], ['project', '--days', '1', ...asks], ['check', ...asks], ['whatif', '--try', 'max-steps=2,max-output-tokens=1000000000000']];
    for (const [command, ...rest] of commands) {
      const r = await cli(command!, sc, '--runs', '2', ...rest);
      expectUserError(r, /dear\.yaml field 'population\[0\]': run 1 \(seed \d+, healthy\): one run costs more than \$9,007/);
    }
  });
});

describe('a draw past 2^53 − 1 at run time names the scenario file and field, in every command', () => {
  const COMMANDS = [['replay', '--runs', '20'], ['generate', '--runs', '20'], ['sweep', '--runs', '20', '--grid', 'max-steps=2,5'], ['calibrate', '--runs', '20'], ['project', '--runs', '20'], ['check', '--runs', '20'], ['whatif', '--runs', '20', '--try', 'max-steps=2']];

  it("an entry's lognormal tail (Infinity), drawn by the agent", async () => {
    const sc = scenario('tail.yaml', { expect: '{ runs: { steps: { min: 0 } } }' }, { outputTokens: '{ kind: lognormal, median: 1e-300, p95: 9e15 }' });
    for (const [command, ...rest] of COMMANDS) {
      expectUserError(await cli(command!, sc, ...rest), /tail\.yaml field 'population\[0\]\.outputTokens': run \d+ \(seed 1\) drew Infinity, more than 9007199254740991 \(2\^53 − 1\)/);
    }
  });

  it("the scenario's own systemTokens (a normal), drawn before the first call", async () => {
    const sc = scenario('head.yaml', { systemTokens: '{ kind: normal, mean: 9e15, sd: 9e15 }' });
    expectUserError(await cli('replay', sc, '--runs', '20'), /head\.yaml field 'systemTokens': run \d+ \(seed 1\) drew \d+, more than 9007199254740991/);
  });

  it("a size times the run's sizeScale, and a steps draw a behaviour makes", async () => {
    const scaled = scenario('scaled.yaml', {}, { outputTokens: '9e15', sizeScale: '{ kind: lognormal, median: 1, p95: 1000 }' });
    expectUserError(await cli('generate', scaled, '--runs', '20'), /scaled\.yaml field 'population\[0\]\.outputTokens': run \d+ \(seed 1\) drew \S+ \(its draw times the run's sizeScale [\d.e+]+\)/);
    const text = readFileSync(scenario('steps.yaml', {}), 'utf8').replace('steps: 3', 'steps: { kind: lognormal, median: 1e-300, p95: 9e15 }');
    writeFileSync(join(dir, 'steps.yaml'), text);
    expectUserError(await cli('replay', join(dir, 'steps.yaml'), '--runs', '20'), /steps\.yaml field 'population\[0\]\.steps': run \d+ \(seed 1\) drew/);
  });

  it('drawCount refuses what a count cannot hold, and takes the cap itself', () => {
    const rng = new Rng(1);
    expect(drawCount(Number.MAX_SAFE_INTEGER, rng)).toBe(Number.MAX_SAFE_INTEGER);
    for (const spec of [{ kind: 'normal' as const, mean: 0, sd: Number.NaN }, { kind: 'fixed' as const, value: Infinity }, { kind: 'fixed' as const, value: 2 ** 53 + 2 }]) {
      const thrown = (() => {
        try {
          drawCount(spec, rng, 0, 'outputTokens');
        } catch (error) {
          return error;
        }
        return undefined;
      })();
      expect(thrown).toBeInstanceOf(DrawOutOfRange);
      expect((thrown as DrawOutOfRange).issues[0]).toMatchObject({ field: 'outputTokens', code: 'draw_too_large' });
    }
  });
});

describe('check: expectations and baselines past what a run can cost', () => {
  const base = readFileSync('scenarios/keeps-asking.yaml', 'utf8');

  it('an expectation bound past $9,007.199254740991 names its field and line', async () => {
    const runs = join(dir, 'expect-runs.yaml');
    writeFileSync(runs, base.replace(/costUsd: \{ max: 0\.003 \}/, 'costUsd: { max: 1e300 }'));
    expectUserError(await cli('check', runs), /expect-runs\.yaml:line \d+ field 'expect\.runs\.costUsd\.max': is 1e300: must be at most \$9,007\.199254740991/);
    const population = join(dir, 'expect-population.yaml');
    writeFileSync(population, base.replace(/^expect:.*$/m, 'expect:\n  population: { costPerCompletedUsd: { min: 1e300 } }').replace(/^  runs: \{ stopReason.*$/m, ''));
    expectUserError(await cli('check', population), /field 'expect\.population\.costPerCompletedUsd\.min': is 1e300: must be at most \$9,007/);
  });

  it('a baseline figure past what its runs can cost names the file and field; a real one still compares', async () => {
    const baseline = join(dir, 'base.json');
    const made = await cli('check', 'scenarios/keeps-asking.yaml', '--runs', '3', '--update-baseline', baseline);
    expect(made.code, made.stderr).toBe(0);
    const again = await cli('check', 'scenarios/keeps-asking.yaml', '--runs', '3', '--baseline', baseline);
    expect(again.code, again.stderr).toBe(0);
    const tamper = (edit: (figures: Record<string, any>) => void) => {
      const file = JSON.parse(readFileSync(baseline, 'utf8'));
      edit(file.scenarios[0].figures);
      const path = join(dir, 'tampered.json');
      writeFileSync(path, JSON.stringify(file));
      return cli('check', 'scenarios/keeps-asking.yaml', '--runs', '3', '--baseline', path);
    };
    expectUserError(await tamper((f) => (f.costUsd = 1e308)), /tampered\.json:line \d+ field 'scenarios\[0\]\.figures\.costUsd': \$1e\+308 is more than 3 runs can cost at \$9,007\.199254740991 each/);
    expectUserError(await tamper((f) => (f.costPerCompletedUsd = 1e300)), /field 'scenarios\[0\]\.figures\.costPerCompletedUsd': \$1e\+300 is more than 3 runs can cost/);
    expectUserError(await tamper((f) => (f.costPerRunUsd.max = 9007.2)), /field 'scenarios\[0\]\.figures\.costPerRunUsd\.max': is 9007\.2: must be at most \$9,007\.199254740991/);
  });
});
