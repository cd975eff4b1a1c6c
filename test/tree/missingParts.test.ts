/**
 * An agent whose parts (`agent.part`) leave a gap — parts 1 and 3 given, or a lone part 3 — is a tree whose
 * inputs leave calls out: `replay --tree` warns which agent misses which parts (as it warns of unrecorded
 * sub-agents), and the parts given keep their recorded numbers in words (`main, part 3 of 3`), not their
 * places among the runs given (`part 2 of 2`). A tree of every part says nothing of the kind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import type { Trace } from '../../src/trace/types.js';
import { sessionTrees } from '../../src/tree/group.js';
import { missingParts, partPlace } from '../../src/tree/partNumbers.js';
import { cliJson } from '../cli/run.js';
import { treeFile } from './treeFile.js';

const dir = mkdtempSync(join(tmpdir(), 'loopcost-missing-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const main = (part?: number) => ({ sessionId: 's', agentId: 'main', kind: 'main' as const, ...(part === undefined ? {} : { part }) });
const sub = (part: number) => ({ sessionId: 's', agentId: 'sub1', kind: 'subagent' as const, parentAgentId: 'main', part });

interface Report {
  trees: { stopDetail: string; agents: { agent: string; stopDetail: string }[] }[];
  warnings: { code: string; message: string }[];
}

describe('an agent whose parts leave a gap', () => {
  it('the numbers below its last no run says, and each run placed by its own number', () => {
    const run = (part?: number) => ({ header: { agent: main(part) } }) as unknown as Trace;
    const runs = [run(1), run(3)];
    expect(missingParts(runs)).toEqual([2]);
    expect(missingParts([run(3)])).toEqual([1, 2]);
    expect(missingParts([run(), run(2)])).toEqual([]);
    expect(partPlace(runs, 1)).toEqual({ part: 3, parts: 3 });
    expect(partPlace([], 0)).toEqual({ part: 1, parts: 1 });
  });

  it('parts 1 and 3: the tree names part 2 missing, and tells the stop as part 3 of 3', async () => {
    const file = treeFile(dir, 'gap.jsonl', [main(1), main(3)]);
    const [tree] = sessionTrees(await loadTraceFile(file)).trees;
    expect(tree!.unrecorded).toEqual([{ agentId: 'main', startedBy: 'main', live: false, parts: [2] }]);
    const report = (await cliJson('replay', '--tree', file)) as Report;
    expect(report.trees[0]!.stopDetail).toMatch(/^main, part 3 of 3: /);
    expect(report.trees[0]!.agents[0]!.stopDetail).toMatch(/^part 3 of 3: /);
    const warnings = report.warnings.filter((w) => w.code === 'unrecorded_parts');
    expect(warnings.map((w) => w.message)).toEqual([
      "session s: main's part 2 is not among the inputs: the tree's totals leave its calls and cost out, and no brake counts them (the parts given keep their numbers); give its file with the session's",
    ]);
  });

  it('a lone part 3 is not the whole agent: parts 1 and 2 are warned of, the stop told as part 3 of 3', async () => {
    const file = treeFile(dir, 'part3.jsonl', [main(3)]);
    const report = (await cliJson('replay', '--tree', file)) as Report;
    expect(report.trees[0]!.stopDetail).toMatch(/^main, part 3 of 3: /);
    expect(report.warnings.find((w) => w.code === 'unrecorded_parts')?.message).toContain("session s: main's parts 1 and 2 are not among the inputs: the tree's totals leave their calls");
  });

  it('gaps of two agents are one line for the tree', async () => {
    const file = treeFile(dir, 'two.jsonl', [main(2), sub(1), sub(4)]);
    const report = (await cliJson('replay', '--tree', file)) as Report;
    const messages = report.warnings.filter((w) => w.code === 'unrecorded_parts').map((w) => w.message);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("session s: main's part 1 and sub1's parts 2 and 3 are not among the inputs: the tree's totals leave their calls");
  });

  it('every part given: no warning, and the parts told as before', async () => {
    const file = treeFile(dir, 'whole.jsonl', [main(1), main(2)]);
    const [tree] = sessionTrees(await loadTraceFile(file)).trees;
    expect(tree!.unrecorded).toBeUndefined();
    const report = (await cliJson('replay', '--tree', file)) as Report;
    expect(report.trees[0]!.stopDetail).toMatch(/^main, part 2 of 2: /);
    expect(report.warnings.some((w) => w.code === 'unrecorded_parts')).toBe(false);
  });
});
