/**
 * One rule for "this run was read from this file" (io/openInput.ts runOfFile): a run's source is its
 * file's, or the file's, `#` and the run's label, which may hold `#` itself (`agent-researcher#2`). A file
 * whose name starts another's (`runs.jsonl`, `runs.jsonl.gz`) is not that file.
 */
import { describe, expect, it } from 'vitest';
import { warnMissingTranscripts } from '../../src/cli/actions/missingTranscripts.js';
import { fileOfRun } from '../../src/cli/actions/pricesDerive.js';
import { runOfFile } from '../../src/io/openInput.js';

describe('the runs of a file', () => {
  it('its source, or its source and #', () => {
    expect(runOfFile('runs.jsonl', 'runs.jsonl')).toBe(true);
    expect(runOfFile('runs.jsonl#3', 'runs.jsonl')).toBe(true);
    expect(runOfFile('rollout.jsonl#agent-researcher#2', 'rollout.jsonl')).toBe(true);
    expect(runOfFile('runs.jsonl.gz#1', 'runs.jsonl')).toBe(false);
    expect(runOfFile('runs.jsonl', 'runs.jsonl.gz')).toBe(false);
  });

  it('a bad runs.jsonl left out does not hide the missing-transcript warnings of runs.jsonl.gz', () => {
    let stderr = '';
    const note = 'sub-agent transcript agent-x.jsonl missing';
    const missing = [
      { source: 'runs.jsonl#1', note },
      { source: 'runs.jsonl.gz#1', note },
    ];
    warnMissingTranscripts(missing, { stderr: (text) => (stderr += text) }, ['runs.jsonl']);
    expect(stderr).toBe(`warning: runs.jsonl.gz#1: ${note}\n`);
  });

  it("prices derive names a run's file whatever its label holds (agent-researcher#2)", () => {
    const fileOf = fileOfRun(['rollout.jsonl', 'other.jsonl', '<stdin>']);
    expect(['rollout.jsonl#main', 'rollout.jsonl#agent-researcher#2', 'other.jsonl', 'other.jsonl#agent-a#b#3', 'rollout.jsonl#main.2', '<stdin>#1'].map(fileOf)).toEqual([
      'rollout.jsonl',
      'rollout.jsonl',
      'other.jsonl',
      'other.jsonl',
      'rollout.jsonl',
      '<stdin>',
    ]);
  });
});
