import { userErrorOf } from '../helpers.js';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { looksLikeMiniSweAgent } from '../../src/import/miniSweAgent.js';
import {
  apportion,
  importSweAgent,
  importSweAgentDetailed,
  looksLikeSweAgent,
  resolveSweAgentModel,
  sweAgentModelFromFileName,
  sweAgentObservationError,
  sweAgentOutcome,
} from '../../src/import/sweAgent.js';
import { countChatTokensWith, countTokens } from '../../src/import/tokenCount.js';

const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = join(here, '..', '..');
const sharedDir = join(projectRoot, '..', 'shared', 'traces', 'swe-agent');
const fixtureDir = join(projectRoot, 'test', 'fixtures', 'swe-agent');

type Json = any;

function read(dir: string, name: string): { path: string; text: string; json: Json } {
  const path = join(dir, name);
  const text = readFileSync(path, 'utf8');
  return { path, text, json: JSON.parse(text) };
}


/**
 * Rebuilt input before scaling vs recorded tokens_sent, per file (`inputRatio` = rebuilt / recorded, as
 * measured). `within5` files must land within ±5% of tokens_sent (and tokens_received).
 *
 * GPT-4 (0.x) runs: exact, the OpenAI cookbook count of `history` is the API's usage.
 * Claude 3.5 Sonnet runs: counted with Anthropic's public tokenizer (cl100k_base was 14.6-16.1% short) over
 * the request SWE-agent 0.x builds for the Messages API. Nothing else was sent: SWE-agent 0.x has no
 * function calling (free-text DISCUSSION + fenced command, `parse_function` of the args.yaml), the
 * `_commands` of the args.yaml reach the model only as the command docs in the system prompt (history[0],
 * counted), the trajectory holds no tool_use/tool_calls, and api_calls equals the steps (no hidden
 * requeries). The rest of the gap is the tokenizer: Anthropic's public one predates Claude 3 ("no longer
 * accurate" for it), and the model's own output, which has no framing or hidden part, is short as well
 * (2.9-7.9%). The two simpy runs land at -4.9%; portalocker, whose prompts and outputs are code-heavier,
 * at -5.9% (output -7.9%), so it is asserted at its measured gap instead. A fixed per-call hidden text
 * cannot explain the three gaps either: fitting gap = c·calls + r·rebuilt to them gives c < 0.
 */
const EXPECTED: Record<
  string,
  { model: string; within5: boolean; approximate: boolean; exact?: boolean; inputRatio: [number, number]; outputRatio: [number, number] }
> = {
  'commit0_claude35sonnet__portalocker_madeup_cmd__97af1e.traj': {
    model: 'claude-3-5-sonnet-20240620',
    within5: false,
    approximate: true,
    inputRatio: [0.935, 0.945],
    outputRatio: [0.915, 0.925],
  },
  'commit0_claude35sonnet__simpy_madeup_cmd__97af1e.traj': {
    model: 'claude-3-5-sonnet-20240620',
    within5: true,
    approximate: true,
    inputRatio: [0.95, 0.955],
    outputRatio: [0.965, 0.975],
  },
  'commit0_claude35sonnet__simpy_madeup_test__97af1e.traj': {
    model: 'claude-3-5-sonnet-20240620',
    within5: true,
    approximate: true,
    inputRatio: [0.95, 0.955],
    outputRatio: [0.96, 0.97],
  },
  'gpt4_2024-04__6e44b9__sweagenttestrepo-1c2844.traj': { model: 'gpt-4-1106-preview', within5: true, approximate: false, exact: true, inputRatio: [1, 1], outputRatio: [1, 1] },
  'gpt4__pydicom__pydicom-1458.traj': { model: 'gpt-4-1106-preview', within5: true, approximate: false, exact: true, inputRatio: [1, 1], outputRatio: [1, 1] },
  'gpt4__swe-agent__test-repo-i1.traj': { model: 'gpt-4-1106-preview', within5: true, approximate: false, exact: true, inputRatio: [1, 1], outputRatio: [1, 1] },
  'v1.0_2024-12__6e44b9__sweagenttestrepo-1c2844.traj': { model: 'gpt-4o', within5: true, approximate: false, inputRatio: [1, 1.005], outputRatio: [1, 1.005] },
};

describe('SWE-agent runs in ../shared', () => {
  const files = readdirSync(sharedDir)
    .filter((file) => file.endsWith('.traj'))
    .sort();

  it('are the seven expected files', () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const file of Object.keys(EXPECTED)) {
    const expected = EXPECTED[file]!;
    it(`${file}: per-call tokens sum exactly to the recorded totals`, () => {
      const { path, text, json } = read(sharedDir, file);
      const { traces, rebuild } = importSweAgentDetailed(text, path);
      expect(traces).toHaveLength(1);
      const trace = traces[0]!;
      const stats = json.info.model_stats;
      expect(trace.header.model).toBe(expected.model);
      expect(rebuild.model).toBe(expected.model);
      expect(trace.calls).toHaveLength(json.trajectory.length);
      expect(trace.calls).toHaveLength(stats.api_calls);
      expect(trace.calls.reduce((a, c) => a + (c.inputTokens ?? 0), 0)).toBe(stats.tokens_sent);
      expect(trace.calls.reduce((a, c) => a + c.outputTokens, 0)).toBe(stats.tokens_received);
      expect(trace.end).toMatchObject({
        type: 'end',
        outcome: 'completed',
        status: 'submitted',
        recordedCostUsd: stats.instance_cost,
        recordedCalls: stats.api_calls,
        recordedInputTokens: stats.tokens_sent,
        recordedOutputTokens: stats.tokens_received,
      });
      expect(trace.header).toMatchObject({ origin: 'recorded', importedFrom: { format: 'swe-agent', path } });
      const notes = trace.header.importedFrom!.notes!.join('\n');
      expect(notes).toContain(`with ${rebuild.encoding}`);
      expect(notes).toContain(`${rebuild.rebuiltInputTotal} rebuilt vs ${stats.tokens_sent} recorded tokens_sent`);
      expect(notes).toContain(`scaled by factor ${rebuild.inputScale.toFixed(4)}`);
      // Per-call inputs grow with the history and keep the rebuilt proportions.
      const inputs = trace.calls.map((call) => call.inputTokens!);
      for (let k = 1; k < inputs.length; k++) expect(inputs[k]!).toBeGreaterThanOrEqual(inputs[k - 1]!);
      // Ends with the one final call: the submit action, whose output never enters the context.
      const last = trace.calls[trace.calls.length - 1]!;
      expect(trace.calls.filter((call) => call.final)).toEqual([last]);
      expect(last.toolCalls![0]).toMatchObject({ name: 'submit', arguments: { command: 'submit' }, resultTokens: 0, error: null });
    });

    it(`${file}: rebuilt input before scaling is ${expected.within5 ? 'within ±5% of' : 'at its measured gap to'} tokens_sent`, () => {
      const { path, text, json } = read(sharedDir, file);
      const { traces, rebuild } = importSweAgentDetailed(text, path);
      const stats = json.info.model_stats;
      expect(rebuild.recordedInputTotal).toBe(stats.tokens_sent);
      expect(rebuild.approximate).toBe(expected.approximate);
      const inputRatio = rebuild.rebuiltInputTotal / stats.tokens_sent;
      const outputRatio = rebuild.rebuiltOutputTotal / stats.tokens_received;
      expect(inputRatio).toBeGreaterThanOrEqual(expected.inputRatio[0]);
      expect(inputRatio).toBeLessThanOrEqual(expected.inputRatio[1]);
      expect(outputRatio).toBeGreaterThanOrEqual(expected.outputRatio[0]);
      expect(outputRatio).toBeLessThanOrEqual(expected.outputRatio[1]);
      if (expected.exact) {
        // SWE-agent 0.x records the API's usage; the cookbook count of history reproduces it exactly.
        expect(rebuild.rebuiltInputTotal).toBe(stats.tokens_sent);
        expect(rebuild.rebuiltOutputTotal).toBe(stats.tokens_received);
      }
      if (expected.within5) {
        expect(Math.abs(inputRatio - 1)).toBeLessThanOrEqual(0.05);
        expect(Math.abs(outputRatio - 1)).toBeLessThanOrEqual(0.05);
      } else {
        // Documented exception (see EXPECTED): the public tokenizer is short on Claude 3.5 Sonnet's code-heavy
        // text, the model's own output (nothing hidden in it) even more than the input.
        expect(inputRatio).toBeLessThan(0.95);
        expect(outputRatio).toBeLessThan(inputRatio);
      }
      const notes = traces[0]!.header.importedFrom!.notes!.join('\n');
      if (expected.model.startsWith('claude')) {
        expect(rebuild.encoding).toBe('claude');
        expect(notes).toMatch(/with claude \(an approximation of claude-3-5-sonnet-20240620's tokenizer\), Messages API framing/);
        // Anthropic's tokenizer is much closer than the cl100k_base count used before (14.6-16.1% short).
        const cl100k = sum(json.trajectory.map((_: unknown, k: number) => countChatTokensWith(promptBefore(json.history, k), 'cl100k_base')));
        expect(cl100k / stats.tokens_sent).toBeLessThan(0.86);
        expect(Math.abs(inputRatio - 1)).toBeLessThan(Math.abs(cl100k / stats.tokens_sent - 1) / 2);
      }
      if (json.replay_config === undefined) expect(notes).toMatch(/no tool definitions counted: SWE-agent 0\.x has no function calling/);
    });
  }

  it('Claude prompts are the Messages API request SWE-agent 0.x sends: system apart, demonstration and task one turn', () => {
    const { path, text, json } = read(sharedDir, 'commit0_claude35sonnet__simpy_madeup_cmd__97af1e.traj');
    const { rebuild } = importSweAgentDetailed(text, path);
    const t = (s: string): number => countTokens(s, 'claude-3-5-sonnet-20240620');
    const [system, demo, task, answer, observation] = json.history.map((m: Json) => m.content as string);
    expect(json.history.map((m: Json) => m.role)).toEqual(['system', 'user', 'user', 'assistant', 'user', 'assistant']);
    const first = t(system) + 4 + t(`${demo}\n${task}`) + 4;
    expect(rebuild.rebuiltInput[0]).toBe(first);
    expect(rebuild.rebuiltInput[1]).toBe(first + 4 + t(answer) + 4 + t(observation));
    expect(rebuild.rebuiltOutput).toEqual([t(answer), t(json.history[5].content)]);
  });

  it('the run with three rejected edits gives 3 consecutive edit calls with the same error', () => {
    const { path, text, json } = read(sharedDir, 'gpt4__pydicom__pydicom-1458.traj');
    const [trace] = importSweAgent(text, path);
    const keys = trace!.calls.map((call) => {
      const tool = call.toolCalls![0]!;
      return tool.error ? `${tool.name}\u0000${tool.error}` : null;
    });
    // Longest run of identical non-null (tool, error) keys.
    let best = { start: -1, length: 0 };
    for (let k = 0; k < keys.length; ) {
      let j = k;
      while (j + 1 < keys.length && keys[k] !== null && keys[j + 1] === keys[k]) j++;
      if (keys[k] !== null && j - k + 1 > best.length) best = { start: k, length: j - k + 1 };
      k = j + 1;
    }
    expect(best).toEqual({ start: 5, length: 3 });
    const tools = trace!.calls.slice(5, 8).map((call) => call.toolCalls![0]!);
    expect(new Set(tools.map((tool) => tool.name))).toEqual(new Set(['edit']));
    expect(tools[0]!.error).toBe(
      'Your proposed edit has introduced new syntax error(s). Please understand the fixes and retry your edit commmand.',
    );
    // The three were rejected with different details (unmatched ']' once, ')' twice): same error anyway.
    expect(json.trajectory[5].observation).toContain("unmatched ']'");
    expect(json.trajectory[6].observation).toContain("unmatched ')'");
    expect(trace!.calls[8]!.toolCalls![0]!.error).toBeNull();
    // Their arguments differ, so only a same-tool-same-error brake (not a same-action one) sees the loop.
    expect(new Set(tools.map((tool) => JSON.stringify(tool.arguments))).size).toBeGreaterThan(1);
  });

  it('uses the sidecar args.yaml for the model and the cost limit', () => {
    const { path, text } = read(sharedDir, 'gpt4__pydicom__pydicom-1458.traj');
    const sidecarArgsYaml = readFileSync(join(sharedDir, 'gpt4__pydicom__pydicom-1458.args.yaml'), 'utf8');
    const [trace] = importSweAgent(text, path, { sidecarArgsYaml });
    expect(trace!.header.model).toBe('gpt-4-1106-preview');
    expect(trace!.header.provider).toBe('openai');
    expect(trace!.header.recordedSettings).toEqual({ maxCostUsd: 3 });
  });
});

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** The messages of history before its k-th assistant message, as role + content. */
function promptBefore(history: Json[], k: number): { role: string; content: string }[] {
  const at = history.map((m, j) => (m.role === 'assistant' ? j : -1)).filter((j) => j >= 0);
  return history.slice(0, at[k] ?? history.length).map((m) => ({ role: m.role, content: m.content }));
}

describe('importSweAgent on fixtures', () => {
  it('0.x run: exact rebuild, tool calls from actions, header tokens', () => {
    const { path, text, json } = read(fixtureDir, 'gpt4__swe-agent__test-repo-i1.traj');
    const { traces, rebuild } = importSweAgentDetailed(text, path);
    const trace = traces[0]!;
    expect(rebuild.rebuiltInputTotal).toBe(52861);
    expect(rebuild.rebuiltInput).toEqual([10211, 10387, 10564, 10792, 10907]);
    expect(trace.calls.map((call) => call.inputTokens)).toEqual(rebuild.rebuiltInput);
    expect(trace.calls.map((call) => call.toolCalls![0]!.name)).toEqual(['find_file', 'open', 'edit', 'python', 'submit']);
    expect(trace.calls[0]!.toolCalls![0]).toEqual({
      name: 'find_file',
      arguments: { command: 'find_file "missing_colon.py"' },
      resultTokens: countTokens(json.trajectory[0].observation, 'gpt-4-1106-preview'),
      error: null,
    });
    const system = json.history[0].content;
    const demo = json.history[1].content;
    expect(json.history[1].is_demo).toBe(true);
    expect(trace.header.systemTokens).toBe(countTokens(system, 'gpt-4') + countTokens(demo, 'gpt-4'));
    expect(trace.header.goalTokens).toBe(countTokens(json.history[2].content, 'gpt-4'));
    expect(trace.header.task).toBe('gpt4__swe-agent__test-repo-i1');
    expect(trace.header.importedFrom!.notes!.join('\n')).toMatch(/demonstration/);
  });

  it('1.0 run: model from replay_config, last call rebuilt from the whole history', () => {
    const { path, text } = read(fixtureDir, 'v1.0_2024-12__6e44b9__sweagenttestrepo-1c2844.traj');
    const { traces, rebuild } = importSweAgentDetailed(text, path);
    const trace = traces[0]!;
    expect(trace.header.model).toBe('gpt-4o');
    expect(rebuild.encoding).toBe('o200k_base');
    expect(trace.header.recordedSettings).toEqual({ maxCostUsd: 3 });
    expect(trace.calls).toHaveLength(5);
    expect(trace.header.importedFrom!.notes!.join('\n')).toMatch(/history holds 4 assistant messages for 5 steps: the last call was rebuilt from the whole history/);
    expect(trace.calls.map((call) => call.toolCalls![0]!.latencyMs! >= 0)).toEqual([true, true, true, true, true]);
  });

  it('model from a sidecar overrides the file name; opts.model overrides everything', () => {
    const { text } = read(fixtureDir, 'gpt4__swe-agent__test-repo-i1.traj');
    const claudeArgs = readFileSync(join(fixtureDir, 'commit0_claude35sonnet__simpy_madeup_cmd.args.yaml'), 'utf8');
    const [fromSidecar] = importSweAgent(text, '/runs/unnamed.traj', { sidecarArgsYaml: claudeArgs });
    expect(fromSidecar!.header).toMatchObject({
      model: 'claude-3-5-sonnet-20240620',
      provider: 'anthropic',
      recordedSettings: { maxCostUsd: 0.5 },
    });
    const gpt4Args = readFileSync(join(fixtureDir, 'gpt4__pydicom__pydicom-1458.args.yaml'), 'utf8');
    expect(importSweAgent(text, '/runs/unnamed.traj', { sidecarArgsYaml: gpt4Args })[0]!.header.model).toBe('gpt-4-1106-preview');
    expect(importSweAgent(text, '/runs/unnamed.traj', { model: 'gpt4-turbo' })[0]!.header.model).toBe('gpt-4-turbo-2024-04-09');
  });

  it('Claude 0.x: empty turns are sent as "(No output)"; a turn cut by a call is sent with its earlier messages only', () => {
    const t = (s: string): number => countTokens(s, 'claude-3-5-sonnet-20240620');
    const doc = {
      history: [
        { role: 'system', content: 'SYS' },
        { role: 'user', content: 'task' },
        { role: 'assistant', content: 'ls' },
        { role: 'user', content: '  ' },
        { role: 'assistant', content: 'cat a.py' },
        { role: 'assistant', content: 'submit' },
      ],
      trajectory: [
        { action: 'ls', observation: '' },
        { action: 'cat a.py', observation: 'x = 1' },
        { action: 'submit', observation: '' },
      ],
      info: { exit_status: 'submitted', model_stats: { tokens_sent: 100, tokens_received: 10, instance_cost: 0, api_calls: 3 } },
    };
    const { rebuild } = importSweAgentDetailed(JSON.stringify(doc), '/runs/x.traj', { model: 'claude-3-5-sonnet-20240620' });
    const first = t('SYS') + 4 + t('task') + 4;
    const second = first + 4 + t('ls') + 4 + t('(No output)');
    expect(rebuild.rebuiltInput).toEqual([first, second, second + 4 + t('cat a.py')]);
    expect(rebuild.rebuiltOutput).toEqual([t('ls'), t('cat a.py'), t('submit')]);
  });

  it('no model anywhere → UserError naming what to do', () => {
    const { text } = read(fixtureDir, 'gpt4__swe-agent__test-repo-i1.traj');
    const error = userErrorOf(() => importSweAgent(text, '/runs/unnamed.traj'));
    expect(error.issues[0]).toMatchObject({ file: '/runs/unnamed.traj', field: 'model', code: 'missing_model' });
    expect(error.issues[0]!.hint).toMatch(/args\.yaml/);
  });

  it('a broken sidecar is a UserError on the sidecar', () => {
    const { path, text } = read(fixtureDir, 'gpt4__swe-agent__test-repo-i1.traj');
    const error = userErrorOf(() =>
      importSweAgent(text, path, { sidecarArgsYaml: 'agent:\n  model: [unclosed\n', sidecarPath: '/runs/x.args.yaml' }),
    );
    expect(error.issues[0]).toMatchObject({ file: '/runs/x.args.yaml', code: 'invalid_yaml' });
  });
});

describe('importSweAgent input errors', () => {
  const { path, text, json } = read(fixtureDir, 'gpt4__swe-agent__test-repo-i1.traj');
  const mutate = (change: (doc: Json) => void): string => {
    const doc = structuredClone(json);
    change(doc);
    return JSON.stringify(doc);
  };

  it('truncated JSON → invalid_json', () => {
    const error = userErrorOf(() => importSweAgent(text.slice(0, 2000), path));
    expect(error.issues[0]).toMatchObject({ file: path, code: 'invalid_json' });
  });

  it('missing arrays, wrong types and negative totals are collected with their field paths', () => {
    const error = userErrorOf(() =>
      importSweAgent(
        mutate((doc) => {
          doc.history[3].content = 12;
          doc.trajectory[2].action = null;
          doc.trajectory[1].execution_time = 'slow';
          doc.info.model_stats.tokens_sent = -1;
          doc.info.model_stats.api_calls = '5';
        }),
        path,
      ),
    );
    const byField = Object.fromEntries(error.issues.map((issue) => [issue.field, issue.code]));
    expect(byField).toEqual({
      'history[3].content': 'wrong_type',
      'trajectory[2].action': 'missing_field',
      'trajectory[1].execution_time': 'wrong_type',
      'info.model_stats.tokens_sent': 'negative_number',
      'info.model_stats.api_calls': 'wrong_type',
    });
    for (const issue of error.issues) expect(issue.file).toBe(path);
    const noTrajectory = userErrorOf(() => importSweAgent(mutate((doc) => delete doc.trajectory), path));
    expect(noTrajectory.issues[0]).toMatchObject({ field: 'trajectory', code: 'missing_field' });
  });

  it('any value in any field gives a trace or a UserError, never a raw TypeError', () => {
    const fields: ((doc: Json, value: unknown) => void)[] = [
      (doc, v) => (doc.history[4] = v),
      (doc, v) => (doc.history[4].role = v),
      (doc, v) => (doc.history[1].is_demo = v),
      (doc, v) => (doc.history = v),
      (doc, v) => (doc.trajectory[0] = v),
      (doc, v) => (doc.trajectory[0].observation = v),
      (doc, v) => (doc.trajectory = v),
      (doc, v) => (doc.info = v),
      (doc, v) => (doc.info.model_stats = v),
      (doc, v) => (doc.info.exit_status = v),
      (doc, v) => (doc.replay_config = v),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.jsonValue(), (set, value) => {
        const doc = structuredClone(json);
        set(doc, value);
        try {
          expect(importSweAgent(JSON.stringify(doc), path)).toHaveLength(1);
        } catch (error) {
          expect(error).toBeInstanceOf(UserError);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('SWE-agent helpers', () => {
  it('apportion preserves the total and the proportions (largest remainder)', () => {
    expect(apportion([1, 1, 1], 10)).toEqual([4, 3, 3]);
    expect(apportion([0, 0], 5)).toEqual([3, 2]);
    expect(apportion([], 5)).toEqual([]);
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 200_000 }), { minLength: 1, maxLength: 60 }), fc.nat({ max: 5_000_000 }), (weights, total) => {
        const shares = apportion(weights, total);
        expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
        const sum = weights.reduce((a, b) => a + b, 0);
        shares.forEach((share, i) => {
          const exact = sum === 0 ? total / weights.length : (weights[i]! * total) / sum;
          expect(Math.abs(share - exact)).toBeLessThan(1);
        });
        expect(apportion(weights, total)).toEqual(shares);
      }),
    );
  });

  it('model names: shortcuts and file names', () => {
    expect(resolveSweAgentModel('gpt4')).toBe('gpt-4-1106-preview');
    expect(resolveSweAgentModel('azure:gpt4')).toBe('gpt-4-1106-preview');
    expect(resolveSweAgentModel('claude-sonnet-3.5')).toBe('claude-3-5-sonnet-20240620');
    expect(resolveSweAgentModel('gpt-4o')).toBe('gpt-4o');
    expect(sweAgentModelFromFileName('/x/gpt4__pydicom__pydicom-1458.traj')).toBe('gpt-4-1106-preview');
    expect(sweAgentModelFromFileName('gpt4_2024-04__6e44b9__sweagenttestrepo-1c2844.traj')).toBe('gpt-4-1106-preview');
    expect(sweAgentModelFromFileName('commit0_claude35sonnet__simpy_madeup_cmd__97af1e.traj.gz')).toBe('claude-3-5-sonnet-20240620');
    expect(sweAgentModelFromFileName('v1.0_2024-12__6e44b9__sweagenttestrepo-1c2844.traj')).toBeUndefined();
  });

  it('exit statuses and observation failures', () => {
    expect(sweAgentOutcome('submitted')).toBe('completed');
    expect(sweAgentOutcome('submitted (exit_cost)')).toBe('completed');
    expect(sweAgentOutcome('exit_cost')).toBe('limit');
    expect(sweAgentOutcome('exit_context')).toBe('limit');
    expect(sweAgentOutcome('exit_command_timeout')).toBe('timeout');
    expect(sweAgentOutcome('exit_format')).toBe('error');
    expect(sweAgentOutcome(undefined)).toBe('unknown');
    expect(sweAgentObservationError('')).toBeNull();
    expect(sweAgentObservationError('Found 1 matches for "x.py"')).toBeNull();
    expect(sweAgentObservationError('No file open. Use the `open` command first.')).toBe('No file open. Use the `open` command first.');
    expect(sweAgentObservationError('bash: line 1: foo: command not found')).toBe('bash: line 1: foo: command not found');
    expect(sweAgentObservationError('Traceback (most recent call last):\n  File "a.py", line 3\nKeyError: 1\n')).toBe('KeyError: 1');
  });

  it('detects the format from top-level keys', () => {
    const { json } = read(fixtureDir, 'gpt4__swe-agent__test-repo-i1.traj');
    expect(looksLikeSweAgent(json)).toBe(true);
    expect(looksLikeMiniSweAgent(json)).toBe(false);
    expect(looksLikeSweAgent({ trajectory: [], history: [] })).toBe(false);
    expect(looksLikeSweAgent(null)).toBe(false);
  });
});
