/**
 * A generated run's ground truth that contradicts itself is refused where it is read, naming file, line
 * and field (before: read, and fed false-stop counts): `taskDone: false` with a `doneAtStep`, and a
 * `doneAtStep` past the run's calls.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

function run(name: string, truth: string): string {
  const path = join(tempDir(), name);
  const calls = [1, 2, 3, 4].map((i) => `{"type":"call","outputTokens":50,"toolCalls":[{"name":"t","arguments":{"i":${i}},"resultTokens":20}]}`);
  const header = `{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":100,"goalTokens":10,"origin":"synthetic","synthetic":{"behaviour":"healthy","seed":1,"run":0,${truth}}}`;
  writeFileSync(path, [header, ...calls, '{"type":"call","outputTokens":20,"final":true}', '{"type":"end","outcome":"completed"}', ''].join('\n'));
  return path;
}

describe('ground truth that contradicts itself', () => {
  it('taskDone false with a doneAtStep: refused at the header line', async () => {
    const r = await cli('replay', run('notdone.jsonl', '"taskDone":false,"doneAtStep":2'));
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/notdone\.jsonl:line 1 field 'synthetic\.doneAtStep': is set, but taskDone is false/);
  });

  it('doneAtStep past the run\'s 5 calls: refused at the header line', async () => {
    const r = await cli('replay', run('past.jsonl', '"taskDone":true,"doneAtStep":9999'));
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain("past.jsonl:line 1 field 'synthetic.doneAtStep': is 9999, but the run has 5 calls");
  });

  it('a truth that holds (done at step 5 of 5) is read', async () => {
    expect((await cli('replay', run('ok.jsonl', '"taskDone":true,"doneAtStep":5'))).code).toBe(0);
  });
});
