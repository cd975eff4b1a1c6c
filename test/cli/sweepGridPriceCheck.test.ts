/**
 * The price-gap warning under a grid of models: a run priced as its own model by some configuration (a
 * grid model that is the run's own) is checked against what it recorded, as under no model at all; a grid
 * that prices no run as its own model says in one line why there is no check (the warning was silently
 * gone); --model as another model stays silent (its settings line says `re-priced as`), and runs that
 * recorded no cost are told nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

/** A gpt-4o run billed $3.00: far from the table's price of it. */
const header = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":100,"goalTokens":20}';
const BILLED = [header, '{"type":"call","inputTokens":5000,"outputTokens":100,"recordedCostUsd":3,"final":true}', '{"type":"end","outcome":"completed"}'].join('\n') + '\n';
const UNBILLED = [header, '{"type":"call","inputTokens":5000,"outputTokens":100,"final":true}', '{"type":"end","outcome":"completed"}'].join('\n') + '\n';
let billed = '';
let billed2 = '';
let unbilled = '';

beforeAll(() => {
  const dir = tempDir();
  billed = join(dir, 'billed.jsonl');
  billed2 = join(dir, 'billed2.jsonl');
  unbilled = join(dir, 'unbilled.jsonl');
  writeFileSync(billed, BILLED);
  writeFileSync(billed2, BILLED);
  writeFileSync(unbilled, UNBILLED);
});

async function warnings(...argv: string[]): Promise<{ code: string; message: string }[]> {
  const run = await cli('sweep', ...argv, '--format', 'json');
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { warnings: { code: string; message: string }[] }).warnings;
}

const codes = (list: { code: string }[]) => list.map((w) => w.code);

describe('sweep --grid model=: the price check of runs priced as their own model', () => {
  it("warns of the gap when one of the grid's models is the run's own, as with no model", async () => {
    const plain = await warnings(billed, '--grid', 'max-steps=3,5');
    expect(codes(plain)).toEqual(['price_gap']);
    for (const grid of ['model=gpt-4o,gpt-4o-mini', 'model=gpt-4o-mini,gpt-4o']) {
      expect(await warnings(billed, '--grid', grid)).toEqual(plain);
    }
    expect(await warnings(billed, '--model', 'gpt-4o', '--grid', 'max-steps=3,5')).toEqual(plain);
  });

  it('says in one line why there is no check when no grid model is the run\'s own', async () => {
    const none = await warnings(billed, '--grid', 'model=gpt-4o-mini,gpt-4.1');
    expect(none).toEqual([
      {
        code: 'no_price_check',
        message:
          'no price check: --grid model= prices the run that recorded a cost (gpt-4o) only as other models, so what it was billed is not compared with the price table; add its own model to the grid to check it',
      },
    ]);
    expect((await warnings(billed, billed2, '--grid', 'model=gpt-4o-mini,gpt-4.1'))[0]!.message).toContain('prices the 2 runs that recorded a cost (gpt-4o) only as other models, so what they were billed');
  });

  it('says nothing under --model as another model, nor of runs that recorded no cost', async () => {
    expect(codes(await warnings(billed, '--model', 'gpt-4o-mini', '--grid', 'max-steps=3,5'))).toEqual([]);
    expect(codes(await warnings(unbilled, '--grid', 'model=gpt-4o-mini,gpt-4.1'))).toEqual([]);
    expect(codes(await warnings(unbilled, '--grid', 'model=gpt-4o,gpt-4.1'))).toEqual([]);
  });
});
