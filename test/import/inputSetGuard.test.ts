/**
 * TraceInputs.guard marks a file bad only for problems of that file's own runs (`file` or `file#k`): a
 * problem of `runs.jsonl.gz#1` is not one of `runs.jsonl`, though its name starts with it.
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { TraceInputs, type InputRun } from '../../src/import/inputSet.js';
import type { Trace } from '../../src/trace/types.js';

const run = (file: string): InputRun => ({ file, trace: { source: `${file}#1` } as Trace });
const failing = (file: string) => () => {
  throw new UserError({ file, field: 'calls', code: 'bad_value', message: 'bad run', hint: 'fix it' });
};

describe('TraceInputs.guard', () => {
  it("marks the run's own file bad for its problems, its runs' (file#k) included", () => {
    const inputs = new TraceInputs([], { skipBad: true });
    expect(inputs.guard(run('runs.jsonl'), failing('runs.jsonl#2'))).toBeUndefined();
    expect(inputs.guard(run('other.jsonl'), failing('other.jsonl'))).toBeUndefined();
    expect(inputs.badInputs.map((bad) => bad.file)).toEqual(['runs.jsonl', 'other.jsonl']);
  });

  it('throws on a problem of another file whose name starts with this one (runs.jsonl.gz against runs.jsonl)', () => {
    const inputs = new TraceInputs([], { skipBad: true });
    expect(() => inputs.guard(run('runs.jsonl'), failing('runs.jsonl.gz#1'))).toThrow(UserError);
    expect(inputs.badInputs).toEqual([]);
  });
});
