/**
 * generate writes native JSONL, as import does: an --out named for another format (`x.txt`) was written
 * as JSONL under that name; it is refused before any run is made, by the one check import uses
 * (cli/actions/output.ts checkNativeJsonlOut), naming the flag and the name to write.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const SCENARIO = 'scenarios/flight-search.yaml';

describe('generate --out', () => {
  it('refuses a name that is not .jsonl or .jsonl.gz, before any run, as import does', async () => {
    const dir = tempDir();
    for (const [name, hint] of [['x.txt', 'x.jsonl'], ['x.json', 'x.jsonl'], ['x.yaml.gz', 'x.jsonl.gz']] as const) {
      const out = join(dir, name);
      const r = await cli('generate', SCENARIO, '--runs', '2', '--out', out);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`loopcost: <command line> field '--out': '${out}' ends in ${name.slice(1)}, but generate writes native JSONL (one JSON record a line), which loopcost reads back from a .jsonl or .jsonl.gz file (name it ${join(dir, hint)})\n(run 'loopcost generate --help' for usage)\n`);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('writes .jsonl and .jsonl.gz (gzip); refuses a name without an extension, naming --out', async () => {
    const dir = tempDir();
    const bare = await cli('generate', SCENARIO, '--runs', '2', '--out', join(dir, 'g'));
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain(`field '--out': '${join(dir, 'g')}' has no .jsonl extension`);
    for (const name of ['g.jsonl', 'G.JSONL', 'g.jsonl.gz']) {
      const r = await cli('generate', SCENARIO, '--runs', '2', '--out', join(dir, name));
      expect(r.code, r.stderr).toBe(0);
    }
    expect(readFileSync(join(dir, 'g.jsonl'), 'utf8')).toMatch(/^\{"type":"header"/);
    expect(gunzipSync(readFileSync(join(dir, 'g.jsonl.gz'))).toString('utf8')).toBe(readFileSync(join(dir, 'g.jsonl'), 'utf8'));
  });
});
