/**
 * The HTTP importers state `reasoningInPrompt: false` where the recorded requests show a run's reasoning was
 * not sent back (src/import/http/reasoningReturn.ts): a call whose response had reasoning, and the next request's
 * copy of its assistant turn carrying none of it. A copy that carries it — in the provider's field for it, only
 * as a signature (Gemini's thoughtSignature, save to Gemini 2.x, which counts none of it), or as `<think>` text
 * in its content — leaves the header unset.
 *
 * Checked against the growth model on the recordings: how each call's Δ input (recorded prompt − the growth
 * model's, the compiled replay's recordedDeltaBefore) moves to the next call's. Where the reasoning was left
 * out, the header unset makes Δ input fall by the reasoning; with `false` it stays.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileTrace } from '../../src/fast/compile.js';
import { importCassette } from '../../src/import/http/cassette.js';
import { importExchangesJsonl } from '../../src/import/http/exchanges.js';
import type { Trace } from '../../src/trace/types.js';

const cassette = (name: string): Trace[] => importCassette(readFileSync(`test/fixtures/cassettes/${name}`, 'utf8'), name);

/** How Δ input moves from call i to call i+1, for each call i with reasoning, the header as imported and unset. */
function moves(trace: Trace): { reasoning: number; imported: number; unset: number }[] {
  const delta = (t: Trace) => {
    const c = compileTrace(t);
    return t.calls.map((_, i) => c.recordedDeltaBefore[i + 1]! - c.recordedDeltaBefore[i]!);
  };
  const [imported, unset] = [delta(trace), delta({ ...trace, header: { ...trace.header, reasoningInPrompt: undefined } })];
  const out: { reasoning: number; imported: number; unset: number }[] = [];
  trace.calls.forEach((call, i) => {
    const next = trace.calls[i + 1];
    if (next === undefined || call.failed || next.failed || !((call.reasoningTokens ?? 0) > 0)) return;
    out.push({ reasoning: call.reasoningTokens!, imported: imported[i + 1]! - imported[i]!, unset: unset[i + 1]! - unset[i]! });
  });
  return out;
}

describe('recorded cassettes: the header says what the requests show', () => {
  it('gpt-5-mini on Chat Completions (reasoning tokens, no reasoning text to send back): false, and Δ input stops moving with the reasoning', () => {
    const [t] = cassette('reasoning-dropped-openai-chat.yaml');
    expect(t!.header.reasoningInPrompt).toBe(false);
    expect(t!.header.importedFrom?.notes).toContainEqual(expect.stringMatching(/^reasoningInPrompt false: the reasoning of interaction 0 is left out/));
    // 192 reasoning tokens: unset, Δ input falls by 187 of them; false, it moves by 5 (framing).
    expect(moves(t!)).toEqual([{ reasoning: 192, imported: 5, unset: -187 }]);
  });

  it('deepseek-reasoner sent its reasoning_content back: unset, and Δ input moves less unset than it would with false', () => {
    const [t] = cassette('reasoning-returned-deepseek.yaml');
    expect(t!.header.reasoningInPrompt).toBeUndefined();
    expect(t!.header.importedFrom?.notes ?? []).not.toContainEqual(expect.stringMatching(/reasoningInPrompt/));
    // The first pair adds deferred tool schemas (195 either way less the reasoning); the second: +20 unset, +46 (20 + its 26 reasoning) with false.
    expect(moves(t!).map((m) => m.unset)).toEqual([195, 20]);
  });

  it('gpt-oss on Groq, its reasoning sent back as <think> text in the content: unset (the copy carries it), though Groq counted none of it', () => {
    const [t] = cassette('groq-tool-use-failed-400.yaml');
    expect(t!.header.reasoningInPrompt).toBeUndefined();
    // 22 reasoning tokens: unset, Δ input falls by exactly them (Groq's prompt did not count the <think> text).
    expect(moves(t!)).toEqual([{ reasoning: 22, imported: -22, unset: -22 }]);
  });

  it('Gemini, only a thoughtSignature sent back: Gemini 2.5 counts none of the reasoning by it (false), Gemini 3 counts it (unset)', () => {
    const [g25] = cassette('reasoning-signature-gemini.yaml');
    const [g3] = cassette('stream-gemini-tools.yaml');
    expect([g25!.header.model, g25!.header.reasoningInPrompt, g3!.header.model, g3!.header.reasoningInPrompt]).toEqual(['gemini-2.5-flash', false, 'gemini-3-flash-preview', undefined]);
    expect(g25!.header.importedFrom?.notes).toContainEqual(
      'reasoningInPrompt false: the reasoning of 2 calls (interaction 0, interaction 1) is sent back in the next request\'s copy of its turn as only a signature of it, of which gemini-2.5-flash counts none (each step holds its output less its reasoning)',
    );
    // gemini-2.5-flash: unset, Δ input falls by the reasoning less ~11 of framing (69 → −57, 33 → −22); false, it moves by the framing.
    expect(moves(g25!)).toEqual([{ reasoning: 69, imported: 12, unset: -57 }, { reasoning: 33, imported: 11, unset: -22 }]);
    // gemini-3: unset, Δ input moves by 12 of its 69.
    expect(moves(g3!)).toEqual([{ reasoning: 69, imported: 12, unset: 12 }]);
  });
});

/** Two exchanges of one run (JSONL): a call with reasoning asking for a tool, then a request that copies its turn. */
function twoCalls(url: string, first: { request: unknown; response: unknown }, second: { request: unknown; response: unknown }): string {
  return [first, second].map((e) => JSON.stringify({ url, status: 200, ...e })).join('\n') + '\n';
}

const ANTHROPIC = 'https://api.anthropic.com/v1/messages';
function anthropicRun(copy: 'thinking' | 'redacted' | 'none'): string {
  const ask = { role: 'user', content: 'Weather in Rome?' };
  const use = { type: 'tool_use', id: 'tu_1', name: 'weather', input: { city: 'Rome' } };
  const thinking = { type: 'thinking', thinking: 'I should call the weather tool.', signature: 'sig' };
  const kept = copy === 'thinking' ? [thinking] : copy === 'redacted' ? [{ type: 'redacted_thinking', data: 'enc' }] : [];
  const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output });
  return twoCalls(
    ANTHROPIC,
    { request: { model: 'claude-sonnet-4-5', messages: [ask] }, response: { id: 'm1', model: 'claude-sonnet-4-5', content: [thinking, use], usage: usage(50, 40) } },
    {
      request: { model: 'claude-sonnet-4-5', messages: [ask, { role: 'assistant', content: [...kept, use] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_1', content: 'sunny' }] }] },
      response: { id: 'm2', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Sunny.' }], usage: usage(80, 5) },
    },
  );
}

const RESPONSES = 'https://api.openai.com/v1/responses';
function responsesRun(copy: 'item' | 'previous' | 'none'): string {
  const ask = { role: 'user', content: 'Weather in Rome?' };
  const reasoning = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc' };
  const call = { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{"city":"Rome"}' };
  const output = { type: 'function_call_output', call_id: 'c1', output: 'sunny' };
  const usage = (input: number, output: number, reasoningTokens: number) => ({ input_tokens: input, output_tokens: output, output_tokens_details: { reasoning_tokens: reasoningTokens } });
  const input = copy === 'previous' ? [output] : [ask, ...(copy === 'item' ? [reasoning] : []), call, output];
  return twoCalls(
    RESPONSES,
    { request: { model: 'gpt-5', input: [ask] }, response: { id: 'resp_1', model: 'gpt-5', output: [reasoning, call], usage: usage(50, 120, 100) } },
    {
      request: { model: 'gpt-5', input, ...(copy === 'previous' ? { previous_response_id: 'resp_1' } : {}) },
      response: { id: 'resp_2', model: 'gpt-5', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Sunny.' }] }], usage: usage(80, 5, 0) },
    },
  );
}

const GEMINI_API = 'https://generativelanguage.googleapis.com/v1beta/models';
/** A Gemini run at `url` (its model named by the URL unless `bodyModel` names it in the request bodies). */
function geminiRun(copy: 'thought' | 'signature' | 'none', url = `${GEMINI_API}/gemini-2.5-flash:generateContent`, bodyModel?: string): string {
  const ask = { role: 'user', parts: [{ text: 'Weather in Rome?' }] };
  const call = { functionCall: { name: 'weather', args: { city: 'Rome' } } };
  const parts = copy === 'thought' ? [{ text: 'Call the tool.', thought: true }, call] : copy === 'signature' ? [{ ...call, thoughtSignature: 'sig' }] : [call];
  const usage = (prompt: number, candidates: number, thoughts: number) => ({ promptTokenCount: prompt, candidatesTokenCount: candidates, thoughtsTokenCount: thoughts });
  const model = bodyModel !== undefined ? { model: bodyModel } : {};
  return twoCalls(
    url,
    { request: { ...model, contents: [ask] }, response: { candidates: [{ content: { role: 'model', parts: [{ ...call, thoughtSignature: 'sig' }] } }], usageMetadata: usage(50, 10, 90) } },
    {
      request: { ...model, contents: [ask, { role: 'model', parts }, { role: 'user', parts: [{ functionResponse: { name: 'weather', response: { result: 'sunny' } } }] }] },
      response: { candidates: [{ content: { role: 'model', parts: [{ text: 'Sunny.' }] } }], usageMetadata: usage(80, 5, 0) },
    },
  );
}

const BEDROCK = 'https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse';
function bedrockRun(copy: 'reasoning' | 'none'): string {
  const ask = { role: 'user', content: [{ text: 'Weather in Rome?' }] };
  const use = { toolUse: { toolUseId: 't1', name: 'weather', input: { city: 'Rome' } } };
  const reasoning = { reasoningContent: { reasoningText: { text: 'Call the tool.', signature: 'sig' } } };
  const usage = (input: number, output: number) => ({ inputTokens: input, outputTokens: output });
  return twoCalls(
    BEDROCK,
    { request: { messages: [ask] }, response: { output: { message: { role: 'assistant', content: [reasoning, use] } }, usage: usage(50, 40) } },
    {
      request: { messages: [ask, { role: 'assistant', content: copy === 'reasoning' ? [reasoning, use] : [use] }, { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'sunny' }] } }] }] },
      response: { output: { message: { role: 'assistant', content: [{ text: 'Sunny.' }] } }, usage: usage(80, 5) },
    },
  );
}

describe('each provider shape: a copy without the reasoning → false; with it (field, signature, server-side) → unset', () => {
  const header = (text: string) => importExchangesJsonl(text, 'run.jsonl')[0]!.header.reasoningInPrompt;
  it('Anthropic Messages: thinking or redacted_thinking blocks kept → unset; dropped → false', () => {
    expect([header(anthropicRun('thinking')), header(anthropicRun('redacted')), header(anthropicRun('none'))]).toEqual([undefined, undefined, false]);
  });
  it('OpenAI Responses: reasoning items passed back or previous_response_id → unset; function calls alone → false', () => {
    expect([header(responsesRun('item')), header(responsesRun('previous')), header(responsesRun('none'))]).toEqual([undefined, undefined, false]);
  });
  it('Gemini: thought parts → unset; a thoughtSignature alone → unset for Gemini 3, false for Gemini 2.x; neither → false', () => {
    expect([header(geminiRun('thought')), header(geminiRun('signature')), header(geminiRun('none'))]).toEqual([undefined, false, false]);
    const g3 = `${GEMINI_API}/gemini-3-pro-preview:generateContent`;
    expect([header(geminiRun('thought', g3)), header(geminiRun('signature', g3)), header(geminiRun('none', g3))]).toEqual([undefined, undefined, false]);
  });
  it('Gemini 2.x by its model name however routed: a models/ or google/ prefix, a Vertex publishers path, 2.0', () => {
    const vertex = (model: string) => `https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google/models/${model}:generateContent`;
    const signed = (url: string, bodyModel?: string) => header(geminiRun('signature', url, bodyModel));
    expect([signed(vertex('gemini-2.5-pro')), signed(vertex('gemini-2.0-flash-001')), signed(GEMINI_API.replace('/models', '/x:generateContent'), 'models/gemini-2.5-flash-lite')]).toEqual([false, false, false]);
    expect([signed(GEMINI_API.replace('/models', '/x:generateContent'), 'google/gemini-2.5-pro'), signed(vertex('gemini-3-flash-preview')), signed(vertex('gemini-20-future'))]).toEqual([false, undefined, undefined]);
  });
  it('Gemini 2.5, one copy with only a signature and one with nothing: false, the note naming which was signed', () => {
    const [ask, reply] = [{ role: 'user', parts: [{ text: 'Weather in Rome and Oslo?' }] }, (city: string) => ({ role: 'user', parts: [{ functionResponse: { name: 'weather', response: { result: city } } }] })];
    const call = (city: string) => ({ functionCall: { name: 'weather', args: { city } } });
    const answer = (parts: unknown[]) => ({ candidates: [{ content: { role: 'model', parts } }], usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 10, thoughtsTokenCount: 90 } });
    const second = [ask, { role: 'model', parts: [{ ...call('Rome'), thoughtSignature: 'sig' }] }, reply('Rome')];
    const lines = [
      { request: { contents: [ask] }, response: answer([{ ...call('Rome'), thoughtSignature: 'sig' }]) },
      { request: { contents: second }, response: answer([{ ...call('Oslo'), thoughtSignature: 'sig2' }]) },
      { request: { contents: [...second, { role: 'model', parts: [call('Oslo')] }, reply('Oslo')] }, response: answer([{ text: 'Sunny, rainy.' }]) },
    ];
    const [t] = importExchangesJsonl(lines.map((e) => JSON.stringify({ url: `${GEMINI_API}/gemini-2.5-flash:generateContent`, status: 200, ...e })).join('\n') + '\n', 'run.jsonl');
    expect(t!.header.reasoningInPrompt).toBe(false);
    expect(t!.header.importedFrom?.notes).toContainEqual(
      "reasoningInPrompt false: the reasoning of 2 calls (line 1, line 2) is left out of the next request's copy of its turn, or (line 1) sent back as only a signature of it, of which gemini-2.5-flash counts none (each step holds its output less its reasoning)",
    );
  });
  it('Bedrock Converse: reasoningContent blocks kept → unset; dropped → false', () => {
    expect([header(bedrockRun('reasoning')), header(bedrockRun('none'))]).toEqual([undefined, false]);
  });
  it('a run whose only reasoning call is its last (no later request copies it) stays unset', () => {
    const last = importExchangesJsonl(responsesRun('none').split('\n')[0]! + '\n', 'one.jsonl');
    expect(last[0]!.header.reasoningInPrompt).toBeUndefined();
  });
});

describe('loopcost import', () => {
  it('writes reasoningInPrompt: false into the header of a run whose requests left the reasoning out, and nothing where they sent it back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopcost-ir-'));
    try {
      const headerOf = (name: string) => {
        const out = join(dir, `${name}.jsonl`);
        const run = spawnSync(process.execPath, ['bin/loopcost.js', 'import', `test/fixtures/cassettes/${name}`, '--out', out], { encoding: 'utf8' });
        expect(run.status, run.stderr).toBe(0);
        return JSON.parse(readFileSync(out, 'utf8').split('\n')[0]!) as Record<string, unknown>;
      };
      expect(headerOf('reasoning-dropped-openai-chat.yaml')).toMatchObject({ type: 'header', reasoningInPrompt: false });
      expect(headerOf('reasoning-returned-deepseek.yaml')).not.toHaveProperty('reasoningInPrompt');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
