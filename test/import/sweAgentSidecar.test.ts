/**
 * A SWE-agent run's settings that are damaged are refused, naming the file, line and field, instead of being
 * read past (a corrupt `per_instance_cost_limit` used to drop the recorded budget from the trace, exit 0):
 * the `args.yaml` beside a 0.x trajectory (read from disk beside it) and the `replay_config` of a 1.x one.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSweAgent } from '../../src/import/sweAgent.js';
import { cli, tempDir } from '../cli/run.js';
import { userErrorOf } from '../helpers.js';

const TRAJ = readFileSync('test/fixtures/swe-agent/gpt4__swe-agent__test-repo-i1.traj', 'utf8');
const ARGS = readFileSync('test/fixtures/swe-agent/gpt4__pydicom__pydicom-1458.args.yaml', 'utf8');
const V1 = JSON.parse(readFileSync('test/fixtures/swe-agent/v1.0_2024-12__6e44b9__sweagenttestrepo-1c2844.traj', 'utf8')) as Record<string, unknown>;
const COST_LINE = ARGS.split('\n').findIndex((line) => line.includes('per_instance_cost_limit')) + 1;

/** The trace's first run imported with `args` as its args.yaml. */
function withArgs(args: string) {
  return importSweAgent(TRAJ, '/runs/gpt4__x.traj', { sidecarArgsYaml: args, sidecarPath: '/runs/gpt4__x.args.yaml' })[0]!;
}

function refusedArgs(args: string) {
  return userErrorOf(() => withArgs(args)).issues;
}

describe('args.yaml: the limits SWE-agent ran with', () => {
  it('a sound cost limit is the recorded budget; 0 is no limit, as SWE-agent reads it (0 < limit <= spent)', () => {
    expect(withArgs(ARGS).header.recordedSettings).toEqual({ maxCostUsd: 3 });
    expect(withArgs(ARGS.replace('per_instance_cost_limit: 3', 'per_instance_cost_limit: 0')).header.recordedSettings).toBeUndefined();
  });

  it.each([
    ['abc', 'wrong_type', 'the string "abc"'],
    ['-3.0', 'negative_number', 'number -3'],
    ['.nan', 'wrong_type', 'number NaN'],
    ['.inf', 'wrong_type', 'number Infinity'],
  ])('per_instance_cost_limit: %s is refused at its line and field, not dropped', (value, code, shown) => {
    const [issue, ...rest] = refusedArgs(ARGS.replace('per_instance_cost_limit: 3', `per_instance_cost_limit: ${value}`));
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ file: '/runs/gpt4__x.args.yaml', line: COST_LINE, field: 'agent.model.per_instance_cost_limit', code });
    expect(issue!.message).toBe(`is ${shown}: expected a cost limit in USD, a number ≥ 0 (0 = no limit, as SWE-agent reads it)`);
  });

  it('per_instance_call_limit is held the same way, and must be whole', () => {
    const args = (value: string) => ARGS.replace('per_instance_cost_limit: 3', `per_instance_cost_limit: 3\n    per_instance_call_limit: ${value}`);
    expect(withArgs(args('40')).header.recordedSettings).toEqual({ maxSteps: 40, maxCostUsd: 3 });
    expect(refusedArgs(args('2.5'))[0]).toMatchObject({ line: COST_LINE + 1, field: 'agent.model.per_instance_call_limit', code: 'not_integer' });
    expect(refusedArgs(args('lots'))[0]).toMatchObject({ line: COST_LINE + 1, field: 'agent.model.per_instance_call_limit', code: 'wrong_type' });
  });

  it('a model name that is no string is named by the key the file uses (model_name)', () => {
    expect(refusedArgs(ARGS.replace('model_name: gpt4', 'model_name: 5'))[0]).toMatchObject({ line: COST_LINE - 1, field: 'agent.model.model_name', code: 'wrong_type' });
  });

  it('a key given twice is named at its field, as every YAML reader says it', () => {
    const twice = ARGS.replace('per_instance_cost_limit: 3', 'per_instance_cost_limit: 3\n    per_instance_cost_limit: 300');
    expect(refusedArgs(twice)[0]).toMatchObject({ line: COST_LINE + 1, field: 'agent.model.per_instance_cost_limit', code: 'duplicate_key', message: 'key "per_instance_cost_limit" is given twice in the same mapping' });
  });

  it('an empty args.yaml, or one of no mapping, is refused (SWE-agent writes the whole configuration; empty is a copy cut short)', () => {
    expect(refusedArgs('')[0]).toMatchObject({ file: '/runs/gpt4__x.args.yaml', code: 'wrong_type', message: 'is empty, not the run configuration (a mapping with agent.model)' });
    expect(refusedArgs('- a\n- b\n')[0]!.message).toBe('holds an array, not the run configuration (a mapping with agent.model)');
    expect(refusedArgs('')[0]!.hint).toMatch(/must be the file SWE-agent wrote/);
  });
});

describe('replay_config (SWE-agent 1.x)', () => {
  const model = (V1.replay_config as { agent: { model: Record<string, unknown> } }).agent.model;

  it('a damaged cost limit is refused at its field', () => {
    const traj = { ...V1, replay_config: { ...(V1.replay_config as object), agent: { model: { ...model, per_instance_cost_limit: 'abc' } } } };
    expect(userErrorOf(() => importSweAgent(JSON.stringify(traj), '/runs/v1.traj')).issues[0]).toMatchObject({ field: 'replay_config.agent.model.per_instance_cost_limit', code: 'wrong_type' });
  });

  it('a replay_config string giving a key twice is refused (JSON.parse kept the last)', () => {
    const config = JSON.stringify(V1.replay_config).replace('"per_instance_cost_limit":3', '"per_instance_cost_limit":3,"per_instance_cost_limit":0');
    expect(config).toContain('"per_instance_cost_limit":0');
    const issue = userErrorOf(() => importSweAgent(JSON.stringify({ ...V1, replay_config: config }), '/runs/v1.traj')).issues[0];
    expect(issue).toMatchObject({ field: 'replay_config.agent.model.per_instance_cost_limit', code: 'duplicate_key' });
    expect(issue!.message).toBe('key "per_instance_cost_limit" is given twice in the same object (in the replay_config string)');
  });
});

describe('the args.yaml found beside the trajectory, through loopcost import', () => {
  const dir = join(tempDir(), 'runs');
  mkdirSync(dir);
  const traj = join(dir, 'gpt4__task.traj');
  writeFileSync(traj, TRAJ);
  const args = join(dir, 'gpt4__task.args.yaml');

  async function imported(argsContent: string | Buffer) {
    writeFileSync(args, argsContent);
    return cli('import', traj);
  }

  it('a corrupt cost limit exits 2 naming the args.yaml, its line and field', async () => {
    const r = await imported(ARGS.replace('per_instance_cost_limit: 3', 'per_instance_cost_limit: abc'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${args}:line ${COST_LINE} field 'agent.model.per_instance_cost_limit': is the string "abc"`);
  });

  it('a binary args.yaml is said to be no run configuration (not "no trace: pass JSONL…")', async () => {
    const r = await imported(Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00]));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`loopcost: ${args}: is a binary file, not the run configuration SWE-agent writes beside the trajectory (the args.yaml beside a SWE-agent trajectory must be the file SWE-agent wrote: restore it or remove it and name the model in the file name)\n`);
  });

  it('bytes that are no UTF-8 are said the same way', async () => {
    const r = await imported(Buffer.from('agent:\n  model:\n    model_name: gpt\xff4\n', 'latin1'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${args}: is not UTF-8 text, not the run configuration SWE-agent writes beside the trajectory`);
  });

  it('an empty args.yaml exits 2 too', async () => {
    const r = await imported('');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${args}: is empty, not the run configuration`);
  });
});
