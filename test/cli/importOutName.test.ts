/**
 * import writes native JSONL (gzip under a .gz name): an --out named for another format is refused before
 * any work, naming the flag and the name to write, as replay and fit refuse an extension they do not write.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cli, ONE_CALL_RUN, tempDir } from './run.js';

describe('import --out', () => {
  it('refuses a name that is not .jsonl or .jsonl.gz, before reading any input', async () => {
    const dir = tempDir();
    for (const [name, hint] of [['imp.json', 'imp.jsonl'], ['imp.txt', 'imp.jsonl'], ['imp.json.gz', 'imp.jsonl.gz']] as const) {
      const out = join(dir, name);
      // The input is not there: the --out name is refused first (no work done).
      const r = await cli('import', join(dir, 'missing.jsonl'), '--out', out);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`field '--out': '${out}' ends in ${name.slice(3)}, but import writes native JSONL`);
      expect(r.stderr).toContain(`name it ${join(dir, hint)}`);
      expect(r.stderr).not.toMatch(/missing\.jsonl/);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('writes .jsonl and .jsonl.gz (gzip); refuses a name without an extension, naming --out', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, ONE_CALL_RUN);
    const bare = await cli('import', input, '--out', join(dir, 'imp'));
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain(`field '--out': '${join(dir, 'imp')}' has no .jsonl extension`);
    for (const name of ['imp.jsonl', 'IMP.JSONL', 'imp.jsonl.gz']) {
      const r = await cli('import', input, '--out', join(dir, name));
      expect(r.code, r.stderr).toBe(0);
    }
    expect(readFileSync(join(dir, 'imp.jsonl'), 'utf8')).toMatch(/^\{"type":"header"/);
    expect(gunzipSync(readFileSync(join(dir, 'imp.jsonl.gz'))).toString('utf8')).toBe(readFileSync(join(dir, 'imp.jsonl'), 'utf8'));
  });
});
