import { userErrorOf } from '../helpers.js';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { importMiniSweAgent, looksLikeMiniSweAgent } from '../../src/import/miniSweAgent.js';
import { looksLikeSweAgent } from '../../src/import/sweAgent.js';
import { countChatTokens, countTokens, encodingForModel, isApproximateTokenizer } from '../../src/import/tokenCount.js';
import type { Trace } from '../../src/trace/types.js';

const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = join(here, '..', '..');
const sharedDir = join(projectRoot, '..', 'shared', 'traces', 'mini-swe-agent');
const fixtureDir = join(projectRoot, 'test', 'fixtures', 'mini-swe-agent');
const priceFile = join(projectRoot, 'test', 'fixtures', 'prices', 'deepseek-recorded.json');

type Json = any;

function fixture(name: string): { path: string; text: string; json: Json } {
  const path = join(fixtureDir, name);
  const text = readFileSync(path, 'utf8');
  return { path, text, json: JSON.parse(text) };
}

const ISE = 'deepseek_reasoner_dev__pvlib__pvlib-python-1606.traj.json';
const TIMEOUT = 'deepseek_reasoner_dev__pvlib__pvlib-python-1154.traj.json';
const SUBMITTED = 'deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json';

interface SharedRun {
  path: string;
  json: Json;
  trace: Trace;
}

function loadShared(): SharedRun[] {
  const runs: SharedRun[] = [];
  for (const set of readdirSync(sharedDir).sort()) {
    for (const file of readdirSync(join(sharedDir, set)).sort()) {
      if (!file.endsWith('.traj.json.gz')) continue;
      const path = join(sharedDir, set, file);
      const text = gunzipSync(readFileSync(path)).toString('utf8');
      const traces = importMiniSweAgent(text, path);
      expect(traces).toHaveLength(1);
      runs.push({ path, json: JSON.parse(text), trace: traces[0]! });
    }
  }
  return runs;
}


describe('tokenCount', () => {
  it('picks the encoding by model family', () => {
    for (const model of ['gpt-4o', 'openai/gpt-4o-mini', 'gpt-4.1-nano', 'o1', 'o3-mini', 'o4-mini', 'gpt-5', 'azure:gpt-4o']) {
      expect(encodingForModel(model), model).toBe('o200k_base');
    }
    for (const model of ['gpt-4', 'gpt-4-1106-preview', 'gpt-3.5-turbo', 'deepseek/deepseek-chat']) {
      expect(encodingForModel(model), model).toBe('cl100k_base');
    }
    expect(encodingForModel('claude-3-5-sonnet-20240620')).toBe('claude');
    expect(isApproximateTokenizer('deepseek/deepseek-chat')).toBe(true);
    expect(isApproximateTokenizer('claude-3-5-sonnet-20240620')).toBe(true);
    expect(isApproximateTokenizer('gpt-4o')).toBe(false);
  });

  it('counts text, treating special-token markers as plain text', () => {
    expect(countTokens('', 'gpt-4o')).toBe(0);
    expect(countTokens('hello world', 'gpt-4o')).toBe(2);
    expect(countTokens('<|endoftext|>', 'gpt-4')).toBeGreaterThan(1);
  });

  it('countChatTokens reproduces the OpenAI cookbook example (129 tokens for gpt-4-0613)', () => {
    const messages = [
      { role: 'system', content: 'You are a helpful, pattern-following assistant that translates corporate jargon into plain English.' },
      { role: 'system', name: 'example_user', content: 'New synergies will help drive top-line growth.' },
      { role: 'system', name: 'example_assistant', content: 'Things working well together will increase revenue.' },
      { role: 'system', name: 'example_user', content: "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage." },
      { role: 'system', name: 'example_assistant', content: "Let's talk later when we're less busy about how to do better." },
      { role: 'user', content: "This late pivot means we don't have time to boil the ocean for the client deliverable." },
    ];
    expect(countChatTokens(messages, 'gpt-4-0613')).toBe(129);
    expect(countChatTokens([], 'gpt-4')).toBe(0);
  });
});

describe('importMiniSweAgent on fixtures', () => {
  it('maps a run that died on an InternalServerError', () => {
    const { path, text, json } = fixture(ISE);
    const [trace] = importMiniSweAgent(text, path);
    expect(trace).toBeDefined();
    const t = trace!;
    expect(t.source).toBe(path);
    expect(t.header).toMatchObject({
      type: 'header',
      schema: 'loopcost.trace/1',
      model: 'deepseek/deepseek-reasoner',
      provider: 'deepseek',
      origin: 'recorded',
      task: 'pvlib__pvlib-python-1606',
      importedFrom: { format: 'mini-swe-agent', path },
      recordedSettings: { maxSteps: 250, maxCostUsd: 3 },
    });
    const system = json.messages[0];
    const goal = json.messages[1];
    expect(t.header.systemTokens).toBe(countTokens(system.content, 'deepseek/deepseek-reasoner'));
    expect(t.header.goalTokens).toBe(countTokens(goal.content, 'deepseek/deepseek-reasoner'));

    const assistants = json.messages.filter((m: Json) => m.role === 'assistant');
    expect(t.calls).toHaveLength(5);
    assistants.forEach((m: Json, k: number) => {
      const call = t.calls[k]!;
      const usage = m.extra.response.usage;
      expect(call.inputTokens).toBe(usage.prompt_tokens);
      expect(call.cachedInputTokens).toBe(usage.prompt_tokens_details.cached_tokens);
      expect(call.outputTokens).toBe(usage.completion_tokens);
      expect(call.reasoningTokens).toBe(usage.completion_tokens_details.reasoning_tokens);
      expect(call.recordedCostUsd).toBe(m.extra.cost);
      expect(call.final).toBeUndefined();
      expect(call.toolCalls).toHaveLength(1);
      const tool = call.toolCalls![0]!;
      expect(tool.name).toBe('bash');
      expect(tool.arguments).toEqual(JSON.parse(m.tool_calls[0].function.arguments));
      const result = json.messages.find((r: Json) => r.role === 'tool' && r.tool_call_id === m.tool_calls[0].id);
      expect(tool.resultTokens).toBe(countTokens(result.content, 'deepseek/deepseek-reasoner'));
      expect(tool.error).toBeNull();
      expect(tool.latencyMs).toBe(Math.round((result.extra.timestamp - m.extra.timestamp) * 1000));
    });
    // Latency: first call has no earlier timestamp, later ones start at the previous tool message.
    expect(t.calls[0]!.latencyMs).toBe(0);
    const i2 = json.messages.indexOf(assistants[1]);
    expect(t.calls[1]!.latencyMs).toBe(Math.round((assistants[1].extra.timestamp - json.messages[i2 - 1].extra.timestamp) * 1000));

    // The 5th API call failed and ended the run.
    expect(t.calls[4]).toMatchObject({ type: 'call', inputTokens: 0, outputTokens: 0, recordedCostUsd: 0, failed: { status: 500 } });
    expect(t.calls[4]!.failed!.message).toMatch(/^litellm\.InternalServerError/);
    expect(t.calls[4]!.failed!.message.length).toBeLessThanOrEqual(200);
    expect(t.end).toMatchObject({ type: 'end', outcome: 'error', status: 'InternalServerError', recordedCalls: 5 });
    expect(t.end.recordedCostUsd).toBe(json.info.model_stats.instance_cost);
    expect(t.end.recordedInputTokens).toBe(assistants.reduce((a: number, m: Json) => a + m.extra.response.usage.prompt_tokens, 0));
    expect(t.end.recordedOutputTokens).toBe(assistants.reduce((a: number, m: Json) => a + m.extra.response.usage.completion_tokens, 0));
    expect(t.header.importedFrom!.notes!.join('\n')).toMatch(/failed call/);
  });

  it('omits the failed call on request', () => {
    const { path, text } = fixture(ISE);
    const [trace] = importMiniSweAgent(text, path, { failedCall: 'omit' });
    expect(trace!.calls).toHaveLength(4);
    expect(trace!.calls.every((call) => call.failed === undefined)).toBe(true);
    expect(trace!.end.recordedCalls).toBe(5);
  });

  it('maps a run that timed out on its first call: no successful call, outcome timeout', () => {
    const { path, text } = fixture(TIMEOUT);
    const [trace] = importMiniSweAgent(text, path);
    const t = trace!;
    expect(t.end).toMatchObject({ outcome: 'timeout', status: 'Timeout', recordedCalls: 1, recordedCostUsd: 0 });
    expect(t.calls.filter((call) => !call.failed)).toHaveLength(0);
    expect(t.calls).toEqual([
      {
        type: 'call',
        inputTokens: 0,
        outputTokens: 0,
        recordedCostUsd: 0,
        latencyMs: 600_000,
        failed: { status: 408, message: expect.stringMatching(/^litellm\.Timeout/) },
      },
    ]);
    expect(t.header.goalTokens).toBeGreaterThan(0);
    const [omitted] = importMiniSweAgent(text, path, { failedCall: 'omit' });
    expect(omitted!.calls).toEqual([]);
    expect(omitted!.end.outcome).toBe('timeout');
  });

  it('marks the submitting call final', () => {
    const { path, text, json } = fixture(SUBMITTED);
    const [trace] = importMiniSweAgent(text, path);
    const t = trace!;
    expect(t.header.model).toBe('deepseek/deepseek-chat');
    expect(t.calls).toHaveLength(5);
    expect(t.calls.map((call) => call.final ?? false)).toEqual([false, false, false, false, true]);
    const submit = t.calls[4]!.toolCalls![0]!;
    expect((submit.arguments as { command: string }).command).toContain('COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT');
    // The submission ends the run: no tool message, nothing enters the context.
    expect(submit.resultTokens).toBe(0);
    expect(t.end).toMatchObject({ outcome: 'completed', status: 'Submitted', recordedCalls: 5 });
    const sum = t.calls.reduce((acc, call) => acc + (call.recordedCostUsd ?? 0), 0);
    expect(sum).toBeCloseTo(json.info.model_stats.instance_cost, 12);
  });

  it('turns a non-zero return code into a short deterministic error', () => {
    const { path, json } = fixture(ISE);
    const tool = json.messages[3];
    tool.extra.returncode = 1;
    tool.extra.raw_output = 'Traceback (most recent call last):\n  File "x.py", line 1\nValueError: boom\n\n';
    const silent = json.messages[5];
    silent.extra.returncode = 1;
    silent.extra.raw_output = '';
    const timedOut = json.messages[7];
    timedOut.extra.returncode = -1;
    timedOut.extra.exception_type = 'TimeoutExpired';
    const long = json.messages[9];
    long.extra.returncode = 2;
    long.extra.raw_output = `error: ${'x'.repeat(500)}`;
    const [trace] = importMiniSweAgent(JSON.stringify(json), path);
    const errors = trace!.calls.slice(0, 4).map((call) => call.toolCalls![0]!.error);
    expect(errors.slice(0, 3)).toEqual(['returncode 1: ValueError: boom', 'returncode 1', 'returncode -1: TimeoutExpired']);
    expect(errors[3]).toMatch(/^returncode 2: error: x+…$/);
    expect(errors[3]!.length).toBe(200);
  });

  it('detects the format from top-level keys', () => {
    const { json } = fixture(ISE);
    expect(looksLikeMiniSweAgent(json)).toBe(true);
    expect(looksLikeSweAgent(json)).toBe(false);
    expect(looksLikeMiniSweAgent({ info: {}, messages: [], trajectory_format: 'mini-swe-agent-1' })).toBe(true);
    expect(looksLikeMiniSweAgent({ trajectory: [], history: [], info: {} })).toBe(false);
    expect(looksLikeMiniSweAgent([])).toBe(false);
    expect(looksLikeMiniSweAgent(null)).toBe(false);
    expect(looksLikeMiniSweAgent('{"messages":[]}')).toBe(false);
  });
});

describe('importMiniSweAgent input errors', () => {
  const { path, text, json } = fixture(ISE);
  const mutate = (change: (doc: Json) => void): string => {
    const doc = structuredClone(json);
    change(doc);
    return JSON.stringify(doc);
  };

  it('truncated JSON → invalid_json naming the file', () => {
    const error = userErrorOf(() => importMiniSweAgent(text.slice(0, 5000), path));
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ file: path, code: 'invalid_json' });
    expect(error.issues[0]!.hint).toMatch(/truncated/);
  });

  it('a JSON syntax error reports its line', () => {
    const lines = text.split('\n');
    lines[10] = `${lines[10]} oops`;
    const error = userErrorOf(() => importMiniSweAgent(lines.join('\n'), path));
    expect(error.issues[0]).toMatchObject({ file: path, code: 'invalid_json', line: 11 });
  });

  it('empty file and non-object root', () => {
    expect(userErrorOf(() => importMiniSweAgent('  \n', path)).issues[0]!.code).toBe('empty_file');
    expect(userErrorOf(() => importMiniSweAgent('[1,2]', path)).issues[0]).toMatchObject({ file: path, code: 'wrong_type' });
  });

  it('missing usage → field path, no line', () => {
    const error = userErrorOf(() => importMiniSweAgent(mutate((doc) => delete doc.messages[2].extra.response.usage), path));
    expect(error.issues).toEqual([
      expect.objectContaining({ file: path, field: 'messages[2].extra.response.usage', code: 'missing_field' }),
    ]);
    expect(error.issues[0]!.line).toBeUndefined();
    expect(error.message).toContain("field 'messages[2].extra.response.usage'");
  });

  it('wrong types and negative tokens are all collected into one error', () => {
    const error = userErrorOf(() =>
      importMiniSweAgent(
        mutate((doc) => {
          doc.messages[2].extra.response.usage.prompt_tokens = '3394';
          doc.messages[4].extra.response.usage.completion_tokens = -5;
          doc.messages[6].extra.response.usage.prompt_tokens_details.cached_tokens = 10_000_000;
          doc.messages[8].extra.cost = 'cheap';
          doc.messages[3].content = 42;
          doc.info.model_stats.api_calls = 2.5;
        }),
        path,
      ),
    );
    const byField = Object.fromEntries(error.issues.map((issue) => [issue.field, issue.code]));
    expect(byField).toEqual({
      'info.model_stats.api_calls': 'not_integer',
      'messages[2].extra.response.usage.prompt_tokens': 'wrong_type',
      'messages[3].content': 'wrong_type',
      'messages[4].extra.response.usage.completion_tokens': 'negative_number',
      'messages[6].extra.response.usage.prompt_tokens_details.cached_tokens': 'inconsistent_usage',
      'messages[8].extra.cost': 'wrong_type',
    });
    for (const issue of error.issues) {
      expect(issue.file).toBe(path);
      expect(issue.hint).toBeTruthy();
    }
  });

  it('caps the issues at 20', () => {
    const big = structuredClone(json);
    const assistant = big.messages[2];
    for (let k = 0; k < 30; k++) {
      const copy = structuredClone(assistant);
      copy.extra.response.usage.prompt_tokens = -1;
      big.messages.splice(3, 0, copy);
    }
    const error = userErrorOf(() => importMiniSweAgent(JSON.stringify(big), path));
    expect(error.issues).toHaveLength(20);
    expect(error.issues[19]!.message).toMatch(/and 10 more issues not shown/);
  });

  it('missing messages / info and orphan tool messages', () => {
    const noMessages = userErrorOf(() => importMiniSweAgent(mutate((doc) => delete doc.messages), path));
    expect(noMessages.issues.map((issue) => issue.field)).toContain('messages');
    const noInfo = userErrorOf(() => importMiniSweAgent(mutate((doc) => delete doc.info), path));
    expect(noInfo.issues.map((issue) => issue.field)).toContain('info');
    const orphan = userErrorOf(() => importMiniSweAgent(mutate((doc) => (doc.messages[3].tool_call_id = 'nope')), path));
    expect(orphan.issues[0]).toMatchObject({ field: 'messages[3]', code: 'orphan_tool_message' });
  });

  it('any value in any field gives a trace or a UserError, never a raw TypeError', () => {
    const fields: [string, (doc: Json, value: unknown) => void][] = [
      ['usage', (doc, v) => (doc.messages[2].extra.response.usage = v)],
      ['response', (doc, v) => (doc.messages[2].extra.response = v)],
      ['extra', (doc, v) => (doc.messages[4].extra = v)],
      ['message', (doc, v) => (doc.messages[4] = v)],
      ['tool_calls', (doc, v) => (doc.messages[2].tool_calls = v)],
      ['function', (doc, v) => (doc.messages[2].tool_calls[0].function = v)],
      ['arguments', (doc, v) => (doc.messages[2].tool_calls[0].function.arguments = v)],
      ['tool extra', (doc, v) => (doc.messages[3].extra = v)],
      ['content', (doc, v) => (doc.messages[1].content = v)],
      ['info', (doc, v) => (doc.info = v)],
      ['model_stats', (doc, v) => (doc.info.model_stats = v)],
      ['config', (doc, v) => (doc.info.config = v)],
      ['messages', (doc, v) => (doc.messages = v)],
      ['exit', (doc, v) => (doc.messages[doc.messages.length - 1] = v)],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.jsonValue(), ([, set], value) => {
        const doc = structuredClone(json);
        set(doc, value);
        try {
          const traces = importMiniSweAgent(JSON.stringify(doc), path);
          expect(traces).toHaveLength(1);
        } catch (error) {
          expect(error).toBeInstanceOf(UserError);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('all 38 mini-swe-agent runs in ../shared', () => {
  const runs = loadShared();

  it('import, one trace each', () => {
    expect(runs).toHaveLength(38);
    const outcomes = runs.map((run) => run.trace.end.outcome);
    expect(outcomes.filter((o) => o === 'completed')).toHaveLength(28);
    expect(outcomes.filter((o) => o === 'error')).toHaveLength(6);
    expect(outcomes.filter((o) => o === 'timeout')).toHaveLength(4);
  });

  it('Σ per-call recorded cost = instance_cost (1e-6 relative) and call count = api_calls', () => {
    for (const { path, json, trace } of runs) {
      const stats = json.info.model_stats;
      expect(trace.calls.length, path).toBe(stats.api_calls);
      expect(trace.end.recordedCalls, path).toBe(stats.api_calls);
      expect(trace.end.recordedCostUsd, path).toBe(stats.instance_cost);
      const sum = trace.calls.reduce((acc, call) => acc + (call.recordedCostUsd ?? 0), 0);
      if (stats.instance_cost === 0) expect(sum, path).toBe(0);
      else expect(Math.abs(sum - stats.instance_cost) / stats.instance_cost, path).toBeLessThan(1e-6);
      const assistants = json.messages.filter((m: Json) => m.role === 'assistant');
      expect(trace.end.recordedInputTokens, path).toBe(
        assistants.reduce((a: number, m: Json) => a + m.extra.response.usage.prompt_tokens, 0),
      );
      expect(trace.end.recordedOutputTokens, path).toBe(
        assistants.reduce((a: number, m: Json) => a + m.extra.response.usage.completion_tokens, 0),
      );
    }
  });

  it('the reasoner runs that timed out on the first call have no successful call and outcome timeout', () => {
    const timeouts = runs.filter((run) => run.json.info.exit_status === 'Timeout');
    expect(timeouts.map((run) => run.json.info.model_stats.api_calls)).toEqual([1, 1, 1, 1]);
    for (const { path, json, trace } of timeouts) {
      expect(json.messages.some((m: Json) => m.role === 'assistant'), path).toBe(false);
      expect(trace.end.outcome).toBe('timeout');
      expect(trace.calls.filter((call) => !call.failed)).toHaveLength(0);
      expect(trace.calls[0]!.failed).toMatchObject({ status: 408 });
      const text = gunzipSync(readFileSync(path)).toString('utf8');
      expect(importMiniSweAgent(text, path, { failedCall: 'omit' })[0]!.calls).toHaveLength(0);
    }
  });

  it('InternalServerError runs → outcome error, status kept, last call failed', () => {
    const errors = runs.filter((run) => run.json.info.exit_status === 'InternalServerError');
    expect(errors).toHaveLength(6);
    for (const { path, trace } of errors) {
      expect(trace.end, path).toMatchObject({ outcome: 'error', status: 'InternalServerError' });
      expect(trace.calls[trace.calls.length - 1]!.failed, path).toMatchObject({ status: 500 });
      expect(trace.calls.some((call) => call.final), path).toBe(false);
    }
  });

  it('Submitted runs end with the one final call, which runs the submit command', () => {
    for (const { path, json, trace } of runs) {
      const finals = trace.calls.map((call, k) => (call.final ? k : -1)).filter((k) => k >= 0);
      if (json.info.exit_status !== 'Submitted') {
        expect(finals, path).toEqual([]);
        continue;
      }
      expect(finals, path).toEqual([trace.calls.length - 1]);
      const command = (trace.calls[trace.calls.length - 1]!.toolCalls![0]!.arguments as { command: string }).command;
      expect(command, path).toContain('COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT');
    }
  });

  it('one tool error per tool message with a non-zero return code', () => {
    for (const { path, json, trace } of runs) {
      const failing = json.messages.filter((m: Json) => m.role === 'tool' && m.extra.returncode !== 0).length;
      const errors = trace.calls.flatMap((call) => call.toolCalls ?? []).filter((tool) => tool.error);
      expect(errors.length, path).toBe(failing);
      for (const tool of errors) expect(tool.error!.length).toBeLessThanOrEqual(200);
    }
  });

  it('the prices in test/fixtures/prices/deepseek-recorded.json reproduce every instance_cost', () => {
    const prices = JSON.parse(readFileSync(priceFile, 'utf8')) as Record<string, Record<string, number>>;
    const pico = (usdPerToken: number | undefined): bigint => BigInt(Math.round((usdPerToken ?? 0) * 1e12));
    for (const key of ['deepseek/deepseek-chat', 'deepseek/deepseek-reasoner', 'deepseek-chat', 'deepseek-reasoner']) {
      expect(prices[key], key).toMatchObject({
        input_cost_per_token: expect.any(Number),
        cache_read_input_token_cost: expect.any(Number),
        output_cost_per_token: expect.any(Number),
        max_input_tokens: expect.any(Number),
      });
    }
    for (const { path, json, trace } of runs) {
      const entry = prices[trace.header.model]!;
      expect(entry, trace.header.model).toBeDefined();
      const [input, cacheRead, output] = [
        pico(entry.input_cost_per_token),
        pico(entry.cache_read_input_token_cost),
        pico(entry.output_cost_per_token),
      ];
      let totalPico = 0n;
      for (const call of trace.calls) {
        const prompt = BigInt(call.inputTokens ?? 0);
        const cached = BigInt(call.cachedInputTokens ?? 0);
        const callPico = (prompt - cached) * input + cached * cacheRead + BigInt(call.outputTokens) * output;
        if (call.recordedCostUsd !== undefined) {
          expect(Math.abs(Number(callPico) - call.recordedCostUsd * 1e12), path).toBeLessThanOrEqual(1);
        }
        totalPico += callPico;
      }
      const instanceCost = json.info.model_stats.instance_cost as number;
      const recomputed = Number(totalPico) / 1e12;
      if (instanceCost === 0) expect(recomputed, path).toBe(0);
      else expect(Math.abs(recomputed - instanceCost) / instanceCost, path).toBeLessThan(1e-6);
    }
  });
});

describe('replies without a tool call', () => {
  it('are format errors (unparseable), not final answers, unless they end a submitted run', () => {
    const path = join(fixtureDir, SUBMITTED);
    const json = JSON.parse(readFileSync(path, 'utf8'));
    // Turn the 2nd call into a reply without tool call, answered by mini-swe-agent's format-error message.
    const reply = json.messages[4];
    delete reply.tool_calls;
    reply.extra.actions = [];
    json.messages[5] = { role: 'user', content: 'Tool call error: ... Every response needs to use the bash tool at least once' };
    const [trace] = importMiniSweAgent(JSON.stringify(json), path);
    expect(trace!.calls[1]).toMatchObject({ unparseable: true });
    expect(trace!.calls[1]!.toolCalls).toBeUndefined();
    expect(trace!.calls[1]!.final).toBeUndefined();
    expect(trace!.calls[4]!.final).toBe(true);
  });
});
