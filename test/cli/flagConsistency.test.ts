/**
 * Flags read one way across commands: a bad `--seed` is refused alone (no warning that it does nothing
 * first), `compare --tolerance` takes what `check --tolerance` takes (one parser: `5%`, `0.05`, `1e-3`),
 * `serve --session-idle-seconds 1e400` is too large (not "not a whole number"), every number flag ignores
 * the space around its value, `contexts --cache-modes` takes its modes in any order, and `prices derive
 * --out` refuses a name that says a format other than the JSON price file it writes.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPriceTable } from '../../src/pricing/index.js';
import { startServer } from '../../src/serve/index.js';
import { UserError } from '../../src/errors.js';
import { loadTraceFile } from '../../src/import/index.js';
import { cli, ONE_CALL_RUN, tempDir } from './run.js';

let dir: string;
let run: string;

beforeAll(() => {
  dir = tempDir();
  run = join(dir, 'run.jsonl');
  writeFileSync(run, ONE_CALL_RUN);
});

describe('flags read one way', () => {
  it('replay --seed -1 with no scenario file: the error alone, no warning before it', async () => {
    const result = await cli('replay', run, '--seed', '-1');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("field '--seed': '-1' is not a whole number, 0 or more");
    expect(result.stderr).not.toContain('warning');
    const fine = await cli('replay', run, '--seed', '3');
    expect(fine.code).toBe(0);
    expect(fine.stderr).toContain('warning: --seed applies to scenario files');
  });

  it('serve --seed -1 over traces: refused, not said to be ignored', async () => {
    const result = await cli('serve', run, '--seed', '-1', '--port', '0', '--check');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("field '--seed': '-1' is not a whole number, 0 or more");
    expect(result.stderr).not.toContain('ignored');
  });

  it.each(['5%', ' 5 % ', '0.05', '1e-3', '0'])('compare --tolerance %j is taken, as check takes it', async (tolerance) => {
    const result = await cli('compare', run, '--tolerance', tolerance);
    expect(result.code, result.stderr).toBe(0);
  });

  it.each(['-5%', '101%', 'abc'])('compare --tolerance %j is refused as check refuses it', async (tolerance) => {
    const compare = await cli('compare', run, '--tolerance', tolerance);
    const check = await cli('check', 'scenarios/weekly-report.yaml', '--baseline', join(dir, 'none.json'), '--tolerance', tolerance);
    expect(compare.code).toBe(2);
    const said = (stderr: string) => stderr.split('\n')[0]!;
    expect(said(compare.stderr)).toBe(said(check.stderr));
  });

  it('serve --session-idle-seconds 1e400 (and startServer with Infinity) is too large, not "not a whole number"', async () => {
    const result = await cli('serve', run, '--session-idle-seconds', '1e400');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("field '--session-idle-seconds': '1e400' is too large: at most 9007199254740991 (2^53 − 1)");
    const [trace] = await loadTraceFile(run);
    const error = await startServer({ sources: { traces: [trace!] }, prices: loadPriceTable(), sessionIdleSeconds: Infinity }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).issues[0]!.message).toBe('Infinity is too large: at most 9007199254740991 (2^53 − 1), the largest count held exactly');
    const fraction = await cli('serve', run, '--session-idle-seconds', '1.5');
    expect(fraction.stderr).toContain("'1.5' is not a whole number greater than 0");
  });

  it('every number flag ignores the space around its value (counts, amounts, shares)', async () => {
    const spaced = await cli('replay', run, '--max-steps', ' 5', '--max-cost', ' 0.5 ', '--timeout', '60 ');
    const plain = await cli('replay', run, '--max-steps', '5', '--max-cost', '0.5', '--timeout', '60');
    expect(spaced.code, spaced.stderr).toBe(0);
    expect(spaced.stdout).toBe(plain.stdout);
  });

  it('contexts --cache-modes takes its modes in any order', async () => {
    for (const modes of ['off,on', 'on,off', 'off']) {
      const result = await cli('contexts', run, '--cache-modes', modes, '--format', 'json');
      expect(result.code, `${modes}: ${result.stderr}`).toBe(0);
    }
  });

  it('prices derive --out d.csv (or .txt) is refused, nothing written; .json and no extension are taken', async () => {
    for (const name of ['d.csv', 'd.txt', 'd.md']) {
      const out = join(dir, name);
      const result = await cli('prices', 'derive', run, '--out', out);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`field '--out': '${out}' ends in ${name.slice(1)}, but prices derive --out writes a price file: LiteLLM JSON`);
      expect(existsSync(out)).toBe(false);
    }
    for (const name of ['d.json', 'derived']) {
      const result = await cli('prices', 'derive', run, '--out', join(dir, name));
      expect(result.stderr).not.toContain('ends in');
    }
  });
});
