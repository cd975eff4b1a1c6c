/**
 * What reports say of context strategies: the open-loop advice points to agents that react to the prompt (not
 * a fitted profile, whose healthy agents do not; its header and a warning say so), `contexts` says a missing
 * cached-input price and the minimum cacheable prefix as replay does, calibrate and sweep name the whole
 * strategy, `check` gives a file's strategy its open-loop line, and a misspelt strategy kind gets a guess.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseContextSpec } from '../../src/context/strategy.js';
import { cli, tempDir } from './run.js';
import { type Warning, warningsOf } from './jsonWarnings.js';


/** A 6-step gpt-4o run whose prompts grow past 1,024 tokens (the review's A.jsonl shape). */
function sixSteps(dir: string): string {
  const lines: object[] = [{ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o', systemTokens: 500, goalTokens: 100, origin: 'recorded', task: 'A' }];
  let history = 0;
  for (let i = 0; i < 6; i++) {
    const last = i === 5;
    lines.push({ type: 'call', outputTokens: 300, inputTokens: 600 + history, ...(last ? { final: true } : { toolCalls: [{ name: 'sh', arguments: { cmd: `s${i}` }, resultTokens: 500 }] }) });
    history += 800;
  }
  lines.push({ type: 'end', outcome: 'completed' });
  const file = join(dir, 'A.jsonl');
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}

const byCode = (warnings: readonly Warning[], code: string): Warning[] => warnings.filter((w) => w.code === code);

describe('what reports say of context strategies', () => {
  it("the open-loop advice names agents that react to the prompt, not a fitted population; a fitted profile's header and runs under a strategy say its agents do not react", async () => {
    const dir = tempDir();
    const [openLoop] = byCode(await warningsOf('replay', sixSteps(dir), '--context', 'window:2'), 'open_loop');
    expect(openLoop!.message).toMatch(/forgetful: docs\/scenarios\.md.*loopcost serve.*a profile loopcost fit writes does not/);
    expect(openLoop!.message).not.toMatch(/replay a synthetic population fitted to these runs/);
    const profile = join(dir, 'fitted.yaml');
    expect((await cli('fit', 'test/fixtures/mini-swe-agent', '--out', profile)).code).toBe(0);
    expect(readFileSync(profile, 'utf8')).toMatch(/^# Context strategies: every entry is healthy, .*do not react to the context strategy/m);
    const under = byCode(await warningsOf('replay', profile, '--runs', '5', '--context', 'window:2'), 'fitted_profile_context');
    expect(under.map((w) => w.message)).toEqual([expect.stringMatching(/fitted\.yaml: a fitted profile's agents do not react to the context strategy .*under context window:2 .*complete and stop as under full history/)]);
    expect(byCode(await warningsOf('replay', profile, '--runs', '5'), 'fitted_profile_context')).toEqual([]);
    expect(byCode(await warningsOf('sweep', profile, '--runs', '5', '--grid', 'context=full,window:2'), 'fitted_profile_context')).toEqual(under);
  });

  it('contexts says a model with no cached-input price and the minimum cacheable prefix, as replay does', async () => {
    const file = sixSteps(tempDir());
    const replayed = await warningsOf('replay', file, '--model', 'gpt-4-turbo', '--cache', 'on');
    expect(replayed.map((w) => w.code)).toEqual(expect.arrayContaining(['cache_no_price', 'cache_min_prefix']));
    const said = await warningsOf('contexts', file, '--model', 'gpt-4-turbo');
    const noPrice = byCode(said, 'cache_no_price');
    expect(noPrice.map((w) => w.message)).toEqual([byCode(replayed, 'cache_no_price')[0]!.message.replace('--cache on: ', '--cache-modes on: ')]);
    expect(byCode(said, 'cache_min_prefix').map((w) => w.message)).toEqual([expect.stringMatching(/^--cache-modes on: gpt-4-turbo: .*minimum cacheable prefix.* over 1 run, in the 3 cache-on rows together$/)]);
    // Cache off only: nothing to say of the cache.
    expect((await warningsOf('contexts', file, '--model', 'gpt-4-turbo', '--cache-modes', 'off')).map((w) => w.code)).not.toContain('cache_no_price');
  });

  it("calibrate's and sweep's open-loop line names the whole strategy", async () => {
    const file = sixSteps(tempDir());
    for (const [context, shown] of [['window:5', 'context window:5 on 1 recorded run'], ['mask:3', 'context mask:3 on 1 recorded run']]) {
      expect(byCode(await warningsOf('calibrate', file, '--context', context!, '--grid', 'max-repeat=3,4'), 'open_loop')[0]!.message).toMatch(new RegExp(`^${shown} changes cost only`));
      expect(byCode(await warningsOf('sweep', file, '--context', context!, '--grid', 'max-steps=3,4'), 'open_loop')[0]!.message).toMatch(new RegExp(`^${shown} changes cost only`));
    }
  });

  it("check gives a file's strategy over its traces the open-loop line the other commands give", async () => {
    const dir = tempDir();
    sixSteps(dir);
    const file = join(dir, 'A.check.yaml');
    writeFileSync(file, ['scenario: loopcost.scenario/1', 'name: A under summary', 'traces: [A.jsonl]', 'context: { context: "summary:trigger=2000,keep=2,tokens=300" }', 'expect:', '  population: { costPerRunUsd: { p95: { max: 10 } } }', ''].join('\n'));
    const r = await cli('check', file, '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const replayed = byCode(await warningsOf('replay', join(dir, 'A.jsonl'), '--context', 'summary:trigger=2000,keep=2,tokens=300'), 'open_loop');
    expect(byCode(JSON.parse(r.stdout).warnings, 'open_loop')).toEqual(expect.arrayContaining(replayed));
  });

  it('a misspelt strategy kind gets a guess, the rest of the spec kept', async () => {
    const guessOf = (spec: string): string => {
      try {
        parseContextSpec(spec, '--context');
      } catch (error) {
        return (error as Error).message;
      }
      return 'parsed';
    };
    expect(guessOf('windw:5')).toMatch(/'windw:5': not a context strategy: did you mean window:5\?/);
    expect(guessOf('Window:5')).toMatch(/did you mean window:5\?/);
    expect(guessOf('FULL')).toMatch(/did you mean full\?/);
    expect(guessOf('sumary:trigger=8000,keep=3,tokens=500')).toMatch(/did you mean summary:trigger=8000,keep=3,tokens=500\?/);
    expect(guessOf('bogus:3')).not.toMatch(/did you mean/);
    const r = await cli('replay', sixSteps(tempDir()), '--context', 'windw:5');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("field '--context': 'windw:5': not a context strategy: did you mean window:5?");
  });
});
