/**
 * Inputs refused only because the price table does not price their model are no damaged files: the closing
 * line says so, offers pricing the model first, and says what --skip-bad would drop (every run of that model,
 * its cost and stops). Before, it said "fix or remove them, or pass --skip-bad to go on without them", and
 * taking that advice left out a whole model's runs from a report that read "completed 100%".
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const FIXTURES = 'test/fixtures/mini-swe-agent';
const CHAT = `${FIXTURES}/deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json`;
const REASONER = [`${FIXTURES}/deepseek_reasoner_dev__pvlib__pvlib-python-1154.traj.json`, `${FIXTURES}/deepseek_reasoner_dev__pvlib__pvlib-python-1606.traj.json`];
const dir = tempDir();
/** A price file that prices deepseek-chat only (the reasoner's runs cannot be priced). */
const CHAT_ONLY = join(dir, 'chat-only.json');
writeFileSync(CHAT_ONLY, JSON.stringify({ 'deepseek/deepseek-chat': { input_cost_per_token: 2.7e-7, output_cost_per_token: 1.1e-6, cache_read_input_token_cost: 7e-8 } }));

/** The last line of a refusal's standard error. */
const lastLine = (stderr: string) => stderr.trim().split('\n').at(-1)!;

describe('inputs refused only for a model the price table lacks', () => {
  it('say so, offer pricing the model, and say what --skip-bad would drop', async () => {
    const r = await cli('replay', CHAT, ...REASONER, '--prices', CHAT_ONLY);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain("unknown model 'deepseek/deepseek-reasoner'");
    expect(lastLine(r.stderr)).toBe(
      '2 of 3 input files have problems; nothing was written (they are bad only for a model the price table does not price: add the model to the table (or give its prices with --prices-override FILE), or price with another table; --skip-bad would leave out every run of that model, its cost and stops not counted)',
    );
  });

  it('beside files bad for another reason: how many are unpriced, and the others to fix', async () => {
    const broken = join(dir, 'broken.traj.json');
    copyFileSync(REASONER[0]!, broken);
    writeFileSync(broken, '{"info": ');
    const r = await cli('replay', CHAT, ...REASONER, broken, '--prices', CHAT_ONLY);
    expect(r.code).toBe(2);
    expect(lastLine(r.stderr)).toContain('3 of 4 input files have problems; nothing was written (2 of them are bad only for a model the price table does not price');
    expect(lastLine(r.stderr)).toContain('fix or remove the others; --skip-bad would go on without all of them');
  });

  it('files bad for other reasons keep the general advice', async () => {
    const broken = join(dir, 'broken2.traj.json');
    writeFileSync(broken, '{"info": ');
    const r = await cli('replay', CHAT, broken);
    expect(r.code).toBe(2);
    expect(lastLine(r.stderr)).toContain('1 of 2 input files have problems; nothing was written (fix or remove them, or pass --skip-bad to go on without them)');
  });
});
