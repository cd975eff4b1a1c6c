/**
 * `sweep --tree` over a live tree recorded with the root's recorder only says which started sub-agents
 * have no recording, once per tree whatever the grid (not once per configuration), in the words `replay
 * --tree` and `whatif --tree` use (report/warnings.ts unrecordedAgentsWarnings); a tree recorded whole
 * beside it adds no warning. Before, the sweep said nothing: its every cell left those agents out unsaid.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { cli } from '../cli/run.js';
import { answer, ScriptedModel, toolTurn } from '../agent/scripted.js';
import { echo, usage } from './liveTreeParts.js';

const dir = mkdtempSync(join(tmpdir(), 'loopcost-sweep-unrecorded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const prices = loadPriceTable();

/** main delegates twice to `researcher` (an echo step and an answer each), then answers; its sub-agents recorded only when `whole`. */
async function liveTree(name: string, whole: boolean): Promise<string[]> {
  const files = [join(dir, `${name}-main.jsonl`)];
  const delegate = defineSubagentTool<{ q: number }>({
    name: 'delegate',
    description: 'hands a task to a sub-agent',
    parameters: { type: 'object' },
    agent: ({ q }) => {
      const file = join(dir, `${name}-sub-${q}.jsonl`);
      if (whole) files.push(file);
      return { agentId: 'researcher', model: new ScriptedModel([toolTurn('echo', { i: q }, usage), answer('found', usage)], 'gpt-4o-mini'), tools: [echo], context: { system: 'You research.', goal: `q${q}` }, ...(whole ? { recorder: fileRecorder(file) } : {}) };
    },
  });
  const main = new ScriptedModel([toolTurn('delegate', { q: 1 }, usage), toolTurn('delegate', { q: 2 }, usage), answer('done', usage)], 'gpt-4o-mini');
  await runAgentLoop({ model: main, tools: [delegate], brakes: { maxSteps: 40 }, context: { system: 's', goal: 'g' }, pricing: prices.resolve('gpt-4o-mini'), clock: new VirtualClock(), recorder: fileRecorder(files[0]!) });
  return files;
}

type Warnings = { warnings: { code: string; message: string }[] };
const unrecorded = (stdout: string) => (JSON.parse(stdout) as Warnings).warnings.filter((w) => w.code === 'unrecorded_subagents').map((w) => w.message);

describe('sweep --tree and sub-agents with no recording', () => {
  it('warns once per tree that left them out, as replay --tree does, however many configurations', async () => {
    const rootOnly = await liveTree('root-only', false);
    const whole = await liveTree('whole', true);
    const inputs = [...rootOnly, ...whole];
    const replayed = await cli('replay', '--tree', ...inputs, '--format', 'json');
    expect(replayed.code).toBe(0);
    const expected = unrecorded(replayed.stdout);
    expect(expected).toHaveLength(1);
    expect(expected[0]).toContain('main started 2 agents with no recording among the inputs (researcher and researcher#2)');

    const swept = await cli('sweep', '--tree', ...inputs, '--grid', 'max-steps=2,50', '--grid', 'subagent-max-steps=1,5', '--format', 'json', '--workers', '1');
    expect(swept.code).toBe(0);
    expect(unrecorded(swept.stdout)).toEqual(expected);

    // A table says it too; the whole tree alone says nothing of the kind.
    const table = await cli('sweep', '--tree', ...inputs, '--grid', 'max-steps=2,50', '--workers', '1');
    expect(table.stdout.replace(/\s+/g, ' ')).toContain('main started 2 agents with no recording among the inputs');
    const alone = await cli('sweep', '--tree', ...whole, '--grid', 'max-steps=2,50', '--format', 'json', '--workers', '1');
    expect(unrecorded(alone.stdout)).toEqual([]);
  });
});
