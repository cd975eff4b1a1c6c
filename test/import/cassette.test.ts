import { userErrorOf } from '../helpers.js';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { importCassette, looksLikeCassette } from '../../src/import/http/cassette.js';
import { countTokens } from '../../src/import/tokenCount.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { traceSchemas } from '../../src/trace/schema.js';
import type { Trace } from '../../src/trace/types.js';

const { callSchema, endSchema, headerSchema } = traceSchemas();

const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = join(here, '..', '..');
const sharedDir = join(projectRoot, '..', 'shared', 'traces', 'cassettes');
const fixtureDir = join(projectRoot, 'test', 'fixtures', 'cassettes');

function shared(name: string): Trace[] {
  return importCassette(readFileSync(join(sharedDir, name), 'utf8'), name);
}
function fixture(name: string): Trace[] {
  return importCassette(readFileSync(join(fixtureDir, name), 'utf8'), name);
}

/** Per cassette: calls per run, failed calls per run, end outcome per run. */
const EXPECTED: Record<string, { calls: number[]; failed: number[]; outcomes: string[]; providers: string[] }> = {
  'models__bedrock__test_cache__test_bedrock_single_tool_choice_preserves_cache_anthropic.yaml': { calls: [2, 2], failed: [0, 0], outcomes: ['completed', 'completed'], providers: ['aws', 'aws'] },
  'models__google__test_cache__test_google_model_cached_content.yaml': { calls: [1, 1], failed: [0, 0], outcomes: ['completed', 'completed'], providers: ['google', 'google'] },
  'models__openrouter__test_cache__test_openrouter_cache_all_settings_real_api.yaml': { calls: [2, 1], failed: [0, 0], outcomes: ['completed', 'completed'], providers: ['openrouter', 'openrouter'] },
  'models__test_anthropic__test_anthropic_mixed_strict_tool_run.yaml': { calls: [3], failed: [0], outcomes: ['completed'], providers: ['anthropic'] },
  'models__test_deepseek__test_deepseek_deferred_capability_with_thinking.yaml': { calls: [3], failed: [0], outcomes: ['completed'], providers: ['deepseek'] },
  'models__test_google__test_google_model_retry.yaml': { calls: [3], failed: [0], outcomes: ['completed'], providers: ['google'] },
  'models__test_groq__test_tool_use_failed_error.yaml': { calls: [3], failed: [1], outcomes: ['completed'], providers: ['groq'] },
  'models__test_openai__test_multiple_agent_tool_calls.yaml': { calls: [2, 2], failed: [0, 0], outcomes: ['completed', 'completed'], providers: ['google', 'openai'] },
  // Five user turns, each answered with text: five runs. Runs 3–5 open with the /responses/compact call
  // made before the user's next turn.
  'models__test_openai_responses__test_openai_responses_compact_with_auto_previous_response_id_chain.yaml': { calls: [1, 1, 2, 2, 2], failed: [0, 0, 0, 0, 0], outcomes: ['completed', 'completed', 'completed', 'completed', 'completed'], providers: ['openai', 'openai', 'openai', 'openai', 'openai'] },
  'models__test_openai_responses__test_openai_responses_model_retry.yaml': { calls: [2], failed: [0], outcomes: ['completed'], providers: ['openai'] },
  'models__test_openrouter__test_openrouter_errors_raised.yaml': { calls: [3], failed: [3], outcomes: ['error'], providers: ['openrouter'] },
  'test_temporal__test_mcptoolset_dynamic_toolset_in_workflow.yaml': { calls: [2], failed: [0], outcomes: ['completed'], providers: ['openai'] },
  'test_temporal__test_temporal_agent_with_model_retry.yaml': { calls: [3], failed: [0], outcomes: ['completed'], providers: ['openai'] },
  'test_tool_search__test_live_tool_search_handoff_anthropic_openai_anthropic.yaml': { calls: [2, 2, 2], failed: [0, 0, 0], outcomes: ['completed', 'completed', 'completed'], providers: ['anthropic', 'openai', 'anthropic'] },
  'test_tool_search__test_tool_search_eval_anthropic.yaml': { calls: [3, 4, 2, 2], failed: [0, 0, 0, 0], outcomes: ['completed', 'completed', 'completed', 'completed'], providers: ['anthropic', 'anthropic', 'anthropic', 'anthropic'] },
  'test_tool_search__test_tool_search_eval_google.yaml': { calls: [3, 3, 1, 3], failed: [0, 0, 0, 0], outcomes: ['completed', 'completed', 'completed', 'completed'], providers: ['google', 'google', 'google', 'google'] },
  'test_tool_search__test_tool_search_eval_openai-chat.yaml': { calls: [3, 3, 1, 1], failed: [0, 0, 0, 0], outcomes: ['completed', 'completed', 'completed', 'completed'], providers: ['openai', 'openai', 'openai', 'openai'] },
};

describe('every cassette in ../shared/traces/cassettes', () => {
  const files = readdirSync(sharedDir).filter((f) => f.endsWith('.yaml')).sort();

  it('is the 17 known cassettes', () => {
    expect(files).toHaveLength(17);
    expect(files).toEqual(Object.keys(EXPECTED).sort());
  });

  // All 17 are agent loops: none is rejected (each has at least one generation call).
  it.each(files)('%s imports into the expected runs', (file) => {
    const traces = shared(file);
    const want = EXPECTED[file]!;
    expect(traces.map((t) => t.calls.length)).toEqual(want.calls);
    expect(traces.map((t) => t.calls.filter((c) => c.failed).length)).toEqual(want.failed);
    expect(traces.map((t) => t.end.outcome)).toEqual(want.outcomes);
    expect(traces.map((t) => t.header.provider)).toEqual(want.providers);
    // The end record says how many calls the run holds.
    expect(traces.map((t) => t.end.recordedCalls)).toEqual(want.calls);
    expect(traces.map((t) => t.source)).toEqual(traces.length === 1 ? [file] : traces.map((_, i) => `${file}#${i + 1}`));
    for (const t of traces) {
      // Every record is a valid native record (strict zod schemas of the trace format).
      headerSchema.parse(t.header);
      for (const c of t.calls) callSchema.parse(c);
      endSchema.parse(t.end);
      expect(t.header.schema).toBe('loopcost.trace/1');
      expect(t.header.origin).toBe('recorded');
      expect(t.header.importedFrom).toMatchObject({ format: 'vcr-cassette', path: file });
      for (const c of t.calls) {
        expect(Number.isInteger(c.outputTokens)).toBe(true);
        if (!c.failed) expect(c.inputTokens).toBeGreaterThanOrEqual((c.cachedInputTokens ?? 0) + (c.cacheWriteTokens ?? 0) + (c.cacheWrite1hTokens ?? 0));
        for (const tc of c.toolCalls ?? []) expect(tc.resultTokens).toBeGreaterThanOrEqual(0);
      }
    }
  });
});

describe('replaying the cassettes as recorded', () => {
  const files = readdirSync(sharedDir).filter((f) => f.endsWith('.yaml')).sort();
  const prices = loadPriceTable({});
  const replay = (t: Trace) => replayTrace(t, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices });

  it('makes exactly the recorded calls of every run (no run stops early on an intermediate answer); OpenRouter runs cost their usage.cost', () => {
    let runs = 0;
    for (const file of files) {
      for (const t of shared(file)) {
        runs += 1;
        const r = replay(t);
        expect(r.modelCalls, t.source).toBe(t.calls.length);
        expect(r.recordedCalls, t.source).toBe(t.calls.length);
        expect(r.failedCalls, t.source).toBe(t.calls.filter((c) => c.failed).length);
        // Compaction calls are paid but are not steps.
        expect(r.steps, t.source).toBe(t.calls.filter((c) => !c.compaction).length);
        expect(r.stopReason, t.source).toBe(t.end.outcome === 'completed' ? 'completed' : 'trace_end');
      }
    }
    expect(runs).toBe(Object.values(EXPECTED).reduce((n, want) => n + want.calls.length, 0));

    const openrouter = shared('models__openrouter__test_cache__test_openrouter_cache_all_settings_real_api.yaml').map(replay);
    expect(openrouter).toHaveLength(2);
    for (const r of openrouter) {
      expect(r.recordedCostPico, r.source).toBeGreaterThan(0);
      expect(Math.abs(r.costPico - r.recordedCostPico!) / r.recordedCostPico!, r.source).toBeLessThanOrEqual(1e-6);
    }
  });
});

describe('HTTP errors', () => {
  it('Groq HTTP 400 tool_use_failed then recovery: a failed call, then successful calls', () => {
    const [t] = fixture('groq-tool-use-failed-400.yaml');
    expect(t!.calls).toHaveLength(3);
    const [failed, second, third] = t!.calls;
    expect(failed!.failed?.status).toBe(400);
    expect(failed!.failed?.message).toMatch(/^Tool call validation failed/);
    expect(failed!.inputTokens).toBe(0);
    expect(failed!.outputTokens).toBe(0);
    // The rejected call went into the history with a retry prompt as its result: a tool error.
    expect(failed!.toolCalls).toHaveLength(1);
    expect(failed!.toolCalls![0]).toMatchObject({ name: 'get_something_by_name', arguments: { foo: 'bar' } });
    expect(failed!.toolCalls![0]!.error).toMatch(/^2 validation errors:/);
    expect(second).toMatchObject({ inputTokens: 301, outputTokens: 52, reasoningTokens: 22 });
    expect(second!.failed).toBeUndefined();
    expect(second!.toolCalls).toEqual([
      { name: 'get_something_by_name', arguments: { name: 'test' }, resultTokens: countTokens('Something with name: test', 'openai/gpt-oss-120b') },
    ]);
    expect(third).toMatchObject({ inputTokens: 336, cachedInputTokens: 256, outputTokens: 96, reasoningTokens: 59, final: true });
    expect(t!.end).toEqual({ type: 'end', outcome: 'completed', recordedCalls: 3 });
    expect(t!.header).toMatchObject({ model: 'openai/gpt-oss-120b', provider: 'groq' });
  });

  it('OpenRouter three 429s: three failed calls and an error outcome', () => {
    const traces = fixture('openrouter-three-429.yaml');
    expect(traces).toHaveLength(1);
    const t = traces[0]!;
    expect(t.source).toBe('openrouter-three-429.yaml');
    expect(t.calls).toHaveLength(3);
    for (const c of t.calls) {
      expect(c.failed?.status).toBe(429);
      expect(c.failed?.message).toMatch(/^Provider returned error: google\/gemini-2.0-flash-exp:free is temporarily rate-limited/);
      expect(c.inputTokens).toBe(0);
      expect(c.outputTokens).toBe(0);
      expect(c.toolCalls).toBeUndefined();
    }
    expect(t.end).toEqual({ type: 'end', outcome: 'error', status: 'HTTP 429', recordedCalls: 3 });
    expect(t.header).toMatchObject({ model: 'google/gemini-2.0-flash-exp:free', provider: 'openrouter' });
  });
});

describe('usage mapping from the cassettes', () => {
  it('keeps OpenRouter usage.cost as recordedCostUsd, per call and summed on end', () => {
    const [run1, run2] = shared('models__openrouter__test_cache__test_openrouter_cache_all_settings_real_api.yaml');
    expect(run1!.calls.map((c) => c.recordedCostUsd)).toEqual([0.01058775, 0.00256995]);
    expect(run1!.end.recordedCostUsd).toBeCloseTo(0.01058775 + 0.00256995, 12);
    expect(run2!.calls[0]!.recordedCostUsd).toBe(0.00341475);
    expect(run2!.end.recordedCostUsd).toBe(0.00341475);
    // prompt_tokens includes the cache; cache_write_tokens is mapped too.
    expect(run1!.calls[0]).toMatchObject({ inputTokens: 2572, cachedInputTokens: 0, cacheWriteTokens: 2569, outputTokens: 63 });
    expect(run1!.calls[1]).toMatchObject({ inputTokens: 2649, cachedInputTokens: 2569, cacheWriteTokens: 79, outputTokens: 100 });
    expect(run1!.calls[0]!.toolCalls).toEqual([{ name: 'calculator', arguments: { expression: '123 * 456' }, resultTokens: countTokens('56088', 'anthropic/claude-sonnet-4.6') }]);
  });

  it('maps Anthropic usage (input_tokens excludes the cache) and tool_use blocks', () => {
    const [t] = fixture('anthropic-mixed-strict-tool-run.yaml');
    const model = 'claude-sonnet-4-5';
    expect(t!.header).toMatchObject({
      model,
      provider: 'anthropic',
      systemTokens: countTokens('Always call `country_source` first, then call `capital_lookup` with that result before replying.', model),
      goalTokens: countTokens('Use the registered tools and respond exactly as `Capital: <city>`.', model),
    });
    // Numbers from the cassette: input_tokens 628/691/757, all cache fields 0.
    expect(t!.calls[0]).toEqual({
      type: 'call',
      inputTokens: 628,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      outputTokens: 50,
      toolCalls: [{ name: 'country_source', arguments: {}, resultTokens: countTokens('Japan', model) }],
    });
    expect(t!.calls[1]!.toolCalls).toEqual([{ name: 'capital_lookup', arguments: { country: 'Japan' }, resultTokens: countTokens('Tokyo', model) }]);
    expect(t!.calls[2]).toMatchObject({ inputTokens: 757, outputTokens: 6, final: true });
    expect(t!.calls[2]!.toolCalls).toBeUndefined();
  });

  it('adds Anthropic-style cache reads back into input for Bedrock Converse', () => {
    const traces = shared('models__bedrock__test_cache__test_bedrock_single_tool_choice_preserves_cache_anthropic.yaml');
    expect(traces).toHaveLength(2); // the test ran the same agent twice: the second request restarts the history
    const [first] = traces;
    expect(first!.header.model).toBe('us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    // usage: inputTokens 433 + cacheReadInputTokens 2752 (+ cacheWrite 0) = 3185; totalTokens 3201 = 3185 + 16.
    expect(first!.calls[0]).toMatchObject({ inputTokens: 433 + 2752, cachedInputTokens: 2752, cacheWriteTokens: 0, outputTokens: 16, latencyMs: 1627 });
    expect(first!.calls[0]!.toolCalls).toEqual([{ name: 'catalog_lookup', arguments: {}, resultTokens: countTokens('21', first!.header.model) }]);
    expect(first!.calls[1]).toMatchObject({ inputTokens: 386 + 2752, cachedInputTokens: 2752, outputTokens: 4, latencyMs: 1954, final: true });
  });

  it('maps Gemini usageMetadata: thoughts are output and reasoning, cached content is part of the prompt', () => {
    const [t] = shared('models__test_google__test_google_model_retry.yaml');
    expect(t!.header).toMatchObject({ model: 'gemini-2.5-pro', provider: 'google' });
    expect(t!.calls[0]).toMatchObject({ inputTokens: 57, outputTokens: 15 + 124, reasoningTokens: 124 });
    const cached = shared('models__google__test_cache__test_google_model_cached_content.yaml');
    expect(cached[0]!.calls[0]).toMatchObject({ inputTokens: 3520, cachedInputTokens: 3512, outputTokens: 2 + 42, reasoningTokens: 42 });
    const notes = cached.flatMap((c) => c.header.importedFrom?.notes ?? []);
    expect(notes).toContain('interaction 0: skipped context-cache management: generativelanguage.googleapis.com/v1beta/cachedContents (not a model call)');
    expect(notes.some((n) => n.startsWith('interaction 3: skipped DELETE'))).toBe(true);
  });

  it('reads DeepSeek cache hits and reasoning tokens', () => {
    const [t] = shared('models__test_deepseek__test_deepseek_deferred_capability_with_thinking.yaml');
    expect(t!.calls[0]).toMatchObject({ inputTokens: 563, cachedInputTokens: 512, outputTokens: 116, reasoningTokens: 60 });
    expect(t!.calls[1]!.toolCalls!.map((c) => c.name)).toEqual(['get_player_name', 'roll_dice']);
    expect(t!.calls[2]).toMatchObject({ inputTokens: 976, cachedInputTokens: 896 });
  });

  it('keeps Responses compaction calls as calls (compaction: true) and records the compaction in the notes', () => {
    const runs = shared('models__test_openai_responses__test_openai_responses_compact_with_auto_previous_response_id_chain.yaml');
    // Each text answer ends a run; the /responses/compact call made before the next user turn opens that
    // turn's run and never ends it.
    expect(runs.map((t) => t.calls.map((c) => [c.inputTokens, c.outputTokens]))).toEqual([
      [[14, 9]],
      [[36, 9]],
      [[141, 183], [276, 8]],
      [[117, 193], [285, 9]],
      [[117, 186], [278, 165]],
    ]);
    // Still all 8 calls of the cassette, 3 of them compaction calls.
    expect(runs.reduce((n, t) => n + t.calls.length, 0)).toBe(8);
    expect(runs.map((t) => t.calls.map((c) => c.compaction === true))).toEqual([
      [false],
      [false],
      [true, false],
      [true, false],
      [true, false],
    ]);
    for (const t of runs) {
      for (const c of t.calls) {
        if (c.compaction) {
          // A compaction call is paid, has no tool call, is not unparseable and is not the answer.
          expect(c.toolCalls).toBeUndefined();
          expect(c.unparseable).toBeUndefined();
          expect(c.final).toBeUndefined();
        } else {
          expect(c).not.toHaveProperty('compaction');
        }
      }
      // Every run ends on its text answer.
      expect(t.calls[t.calls.length - 1]!.final).toBe(true);
      expect(t.end).toEqual({ type: 'end', outcome: 'completed', recordedCalls: t.calls.length });
    }
    const notes = runs.map((t) => t.header.importedFrom?.notes ?? []);
    expect(notes.map((n) => n.filter((x) => /context compaction call/.test(x)).length)).toEqual([0, 0, 1, 1, 1]);
    expect(notes.map((n) => n.filter((x) => /carries compaction item cmp_/.test(x)).length)).toEqual([0, 0, 1, 1, 1]);
    expect(notes.map((n) => n.filter((x) => /^run \d of 5 in the file$/.test(x)))).toEqual([1, 2, 3, 4, 5].map((i) => [`run ${i} of 5 in the file`]));
  });

  it('skips MCP JSON-RPC traffic with a note for each interaction', () => {
    const [t] = shared('test_temporal__test_mcptoolset_dynamic_toolset_in_workflow.yaml');
    const notes = t!.header.importedFrom?.notes ?? [];
    expect(notes.filter((n) => /skipped MCP\/JSON-RPC/.test(n))).toHaveLength(10);
    expect(t!.calls[0]!.toolCalls![0]!.name).toBe('ask_question');
    expect(t!.calls[0]!.toolCalls![0]!.resultTokens).toBeGreaterThan(500);
  });

  it('splits a handoff between providers into one run per model', () => {
    const traces = shared('test_tool_search__test_live_tool_search_handoff_anthropic_openai_anthropic.yaml');
    expect(traces.map((t) => t.header.model)).toEqual(['claude-sonnet-4-6', 'gpt-5.4', 'claude-sonnet-4-6']);
    expect(traces[1]!.calls[0]!.toolCalls).toEqual([
      { name: 'get_exchange_rate', arguments: { pair: 'GBP/USD' }, resultTokens: countTokens('GBP/USD: 0.92', 'gpt-5.4') },
    ]);
  });
});

describe('tool-retry loops produce tool calls with errors', () => {
  it('Chat Completions retry prompt ("Fix the errors and try again.")', () => {
    const [t] = fixture('openai-chat-tool-retry.yaml');
    const calls = t!.calls.map((c) => c.toolCalls?.[0]);
    expect(calls[0]).toMatchObject({ name: 'get_weather_in_city', arguments: { city: 'CDMX' }, error: 'Did you mean Mexico City?' });
    expect(calls[1]).toMatchObject({ name: 'get_weather_in_city', arguments: { city: 'Mexico City' } });
    expect(calls[1]!.error).toBeUndefined();
  });

  it('Anthropic tool_result is_error: true', () => {
    const run = shared('test_tool_search__test_tool_search_eval_anthropic.yaml')[1]!;
    const tc = run.calls[1]!.toolCalls![0]!;
    expect(tc).toMatchObject({ name: 'stock_lookup', arguments: { ticker: 'AAPL' } });
    expect(tc.error).toMatch(/^2 validation errors:/);
    expect(run.calls[2]!.toolCalls![0]).toMatchObject({ name: 'stock_lookup', arguments: { symbol: 'AAPL' } });
    expect(run.calls[2]!.toolCalls![0]!.error).toBeUndefined();
  });

  it('Gemini functionResponse {error} and Responses function_call_output retry prompts', () => {
    const [g] = shared('models__test_google__test_google_model_retry.yaml');
    expect(g!.calls[0]!.toolCalls![0]).toMatchObject({ name: 'get_capital', arguments: { country: 'France' }, error: 'The country is not supported. Use "La France" instead.' });
    expect(g!.calls[1]!.toolCalls![0]!.error).toBeUndefined();
    const [r] = shared('models__test_openai_responses__test_openai_responses_model_retry.yaml');
    expect(r!.calls[0]!.toolCalls!.map((c) => [c.arguments, c.error ?? null])).toEqual([
      [{ loc_name: 'Londos' }, 'Wrong location, I only know about "London".'],
      [{ loc_name: 'London' }, null],
    ]);
  });
});

describe('cassette containers', () => {
  it('decodes a gzip !!binary response body', () => {
    const [t] = fixture('gzip-binary-body.yaml');
    expect(t!.calls).toEqual([
      { type: 'call', inputTokens: 12 + 2048, cachedInputTokens: 2048, cacheWriteTokens: 0, outputTokens: 3, final: true },
    ]);
    expect(t!.header.systemTokens).toBe(countTokens('Be brief.', 'claude-sonnet-4-5'));
  });

  it('detects cassettes by their top-level key interactions, first or after other keys', () => {
    expect(looksLikeCassette('interactions:\n- request: {}\n')).toBe(true);
    expect(looksLikeCassette('# recorded by vcrpy\n---\ninteractions:\n')).toBe(true);
    expect(looksLikeCassette('version: 1\ninteractions: []\n')).toBe(true);
    expect(looksLikeCassette('version: 1\nrequests: []\n')).toBe(false);
    expect(looksLikeCassette('{"interactions": []}')).toBe(false);
  });
});

describe('malformed cassettes give UserErrors naming file, line and field', () => {
  it('an OpenAI-compatible API on an unknown host is read by its path; the host is the provider hint', () => {
    const traces = fixture('compatible-unknown-host.yaml');
    expect(traces.map((t) => t.header.provider)).toEqual(['openai', 'llm.internal.example.com']);
    expect(traces[1]!.calls).toEqual([{ type: 'call', inputTokens: 9, outputTokens: 3, final: true }]);
    expect(traces[1]!.header.importedFrom?.notes).toContain('provider hint is the host llm.internal.example.com (no known provider serves it): prices are found by model name');
  });

  it('missing usage', () => {
    const err = userErrorOf(() => fixture('missing-usage.yaml'));
    expect(err.issues[0]).toMatchObject({ file: 'missing-usage.yaml', line: 2, field: 'interactions[0].response.body.string.usage', code: 'missing_field' });
    expect(err.issues[0]!.hint).toMatch(/usage/);
  });

  it('wrong types in a usage field and in the status', () => {
    const text = readFileSync(join(fixtureDir, 'groq-tool-use-failed-400.yaml'), 'utf8');
    const badUsage = text.replace('prompt_tokens: 336', "prompt_tokens: '336'");
    const err = userErrorOf(() => importCassette(badUsage, 'groq.yaml'));
    expect(err.issues[0]).toMatchObject({ file: 'groq.yaml', field: 'interactions[2].response.parsed_body.usage.prompt_tokens', code: 'wrong_type' });
    // The field's own line (the YAML node's), not the line its interaction starts on.
    expect(err.issues[0]!.line).toBe(text.split('\n').indexOf('        prompt_tokens: 336') + 1);
    const badStatus = text.replace('code: 400', 'code: Bad');
    expect(userErrorOf(() => importCassette(badStatus, 'groq.yaml')).issues[0]).toMatchObject({
      field: 'interactions[0].response.status.code',
      code: 'wrong_type',
      line: text.split('\n').indexOf('      code: 400') + 1,
    });
    const negative = text.replace('completion_tokens: 52', 'completion_tokens: -52');
    expect(userErrorOf(() => importCassette(negative, 'groq.yaml')).issues[0]).toMatchObject({ field: 'interactions[1].response.parsed_body.usage.completion_tokens', code: 'negative_number' });
  });

  it('a body that is not JSON, invalid YAML, no interactions', () => {
    const text = readFileSync(join(fixtureDir, 'missing-usage.yaml'), 'utf8').replace(`"finish_reason": "stop"}]}'`, `"finish_reason": "stop"}]'`);
    expect(userErrorOf(() => importCassette(text, 'c.yaml')).issues[0]).toMatchObject({ file: 'c.yaml', line: 11, field: 'interactions[0].response.body.string', code: 'invalid_json' });
    expect(userErrorOf(() => importCassette('interactions:\n- request: {uri: "x"\n', 'y.yaml')).issues[0]).toMatchObject({ file: 'y.yaml', code: 'invalid_yaml' });
    expect(userErrorOf(() => importCassette('interactions: 3\n', 'z.yaml')).issues[0]).toMatchObject({ file: 'z.yaml', field: 'interactions', code: 'missing_field' });
  });

  it('a cassette with only non-generation traffic is not a trace', () => {
    const text = 'interactions:\n- request:\n    method: GET\n    uri: https://api.openai.com/v1/models\n  response:\n    status: {code: 200, message: OK}\n    body: {string: \'{"data": []}\'}\n';
    expect(userErrorOf(() => importCassette(text, 'models.yaml')).issues[0]).toMatchObject({ file: 'models.yaml', code: 'no_model_calls' });
  });

  it('a streamed response that finished without usage is refused with the include_usage hint', () => {
    const text = readFileSync(join(fixtureDir, 'stream-openai-chat-tools.yaml'), 'utf8').replace(/\n +data: \{[^\n]*"usage":\{"prompt_tokens":53[^\n]*\n/, '\n');
    const err = userErrorOf(() => importCassette(text, 's.yaml'));
    expect(err.issues[0]).toMatchObject({ file: 's.yaml', field: 'interactions[0].response.body.string(reassembled stream).usage', code: 'missing_field' });
    expect(err.issues[0]!.hint).toMatch(/stream_options: \{"include_usage": true\}/);
  });
});
