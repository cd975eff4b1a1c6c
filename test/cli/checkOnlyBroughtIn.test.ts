/**
 * Whether a scenario file for check only (recorded `traces:`, no population) among replay's inputs was
 * named on its own (refused: `no synthetic population`) or brought in by a directory or glob (left out,
 * its recordings replayed as traces) is the walk's one notion (collectInputs.ts BroughtIn), as it is for a
 * trace file of no model call: the first input that reaches a file brings it in, however either is spelled.
 * Before, src/scenario/checkOnly.ts asked whether the path was among the arguments as typed: `replay dir
 * dir/x.check.yaml` refused the file while `replay dir ./dir/x.check.yaml` left it out, and a trace file
 * of no model call in the same place was left out.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const NO_POPULATION = 'has no synthetic population';
const NO_MODEL_CALL = 'holds no model call';

/** `dir/`: a scenario with a population, one for check only with its recording, a summary-only session; as relative paths. */
function folder(): { dir: string; checkOnly: string; summaryOnly: string } {
  const top = tempDir();
  const abs = join(top, 'scenarios');
  mkdirSync(abs);
  for (const name of ['reference-sum-of-squares.yaml', 'backtracking-explorer.check.yaml', 'backtracking-explorer.jsonl']) copyFileSync(join('scenarios', name), join(abs, name));
  writeFileSync(join(abs, 'summary.jsonl'), '{"type":"summary","summary":"Fix the login redirect loop","leafUuid":"0b6f4c2e-9d0e-4a4f-8f0e-3d9c1f5a7b21"}\n');
  const dir = relative(process.cwd(), abs);
  return { dir, checkOnly: join(dir, 'backtracking-explorer.check.yaml'), summaryOnly: join(dir, 'summary.jsonl') };
}

/** Exit code and whether each file was refused, for one replay. */
async function replay(...paths: string[]): Promise<{ code: number; refused: { checkOnly: boolean; noCall: boolean } }> {
  const r = await cli('replay', ...paths, '--format', 'json');
  return { code: r.code, refused: { checkOnly: r.stderr.includes(NO_POPULATION), noCall: r.stderr.includes(`${NO_MODEL_CALL}: no run to read`) } };
}

describe('a scenario file for check only is named on its own or brought in as every input is', () => {
  it('a directory first, then the file inside it, however spelled: left out, as a trace of no model call there is', async () => {
    const { dir, checkOnly, summaryOnly } = folder();
    for (const named of [[checkOnly, summaryOnly], [`./${checkOnly}`, `./${summaryOnly}`]]) {
      const result = await replay(dir, ...named);
      expect([named[0], result]).toEqual([named[0], { code: 0, refused: { checkOnly: false, noCall: false } }]);
    }
  });

  it('named on its own (first, or alone), however spelled: refused, as a trace of no model call is', async () => {
    const { dir, checkOnly, summaryOnly } = folder();
    for (const spelled of [checkOnly, `./${checkOnly}`]) {
      expect((await replay(spelled)).refused.checkOnly, spelled).toBe(true);
      expect((await replay(spelled, dir)).refused.checkOnly, spelled).toBe(true);
    }
    expect((await replay(summaryOnly, dir)).refused.noCall).toBe(true);
  });

  it('a glob that matches it: left out', async () => {
    const { dir, checkOnly } = folder();
    const r = await cli('replay', join(dir, '*.yaml'), join(dir, '*.jsonl'), checkOnly, '--format', 'json');
    expect(r.stderr).not.toContain(NO_POPULATION);
  });
});
