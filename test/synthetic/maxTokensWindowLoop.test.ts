/**
 * The simulated loop sends max_tokens with every call (the session's `--max-output-tokens`, default 4096),
 * and a synthetic agent's provider refuses a request whose prompt + max_tokens passes the model's window,
 * as OpenAI and Anthropic do: the run ends there, `provider_refused` (a failed call, 400, paid nothing, no
 * step), though the prompt itself is within the window. A smaller max_tokens lets the run go on.
 * `generate` writes that refusal (a failed call with `contextLengthExceeded`), and replaying what it wrote
 * gives the run again, to its stop: the refused call no step.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { scenarioRuns } from '../../src/scenario/run.js';
import { cli, tempDir } from '../cli/run.js';
import { PRICES, promptAt, REFUSED_AT, SCENARIO, WINDOW } from './maxTokensWindowScenario.js';

function runs(brakes: BrakeConfig) {
  return [...scenarioRuns(SCENARIO, { prices: PRICES, runs: 3, brakes, keepSteps: true }, true)];
}

describe('the simulated loop refuses as a provider does: prompt + the max_tokens it sends past the window', () => {
  it('with the default 4096 the run ends provider_refused at call 9, whose prompt is within the window, after 8 steps', () => {
    const k = REFUSED_AT[4096];
    expect(promptAt(k)).toBeLessThanOrEqual(WINDOW);
    expect(promptAt(k) + 4096).toBeGreaterThan(WINDOW);
    expect(promptAt(k - 1) + 4096).toBeLessThanOrEqual(WINDOW);
    for (const run of runs(NO_BRAKES)) {
      expect(run.ending).toBe('context_window');
      expect(run.result.stopReason).toBe('provider_refused');
      expect(run.result.steps).toBe(k - 1);
      expect(run.result.failedCalls).toBe(1);
      expect(run.result.stopDetail).toBe(`the provider refused the call: prompt of ${promptAt(k)} tokens + max_tokens 4096 > context window ${WINDOW}`);
      expect(run.calls.at(-1)!.failed).toEqual({
        status: 400,
        message: `prompt of ${promptAt(k)} tokens + max_tokens 4096 past the model's context window of ${WINDOW} (synthetic)`,
        contextLengthExceeded: { promptTokens: promptAt(k), maxOutputTokens: 4096, contextWindowTokens: WINDOW },
      });
      // The calls before it were answered at the prompts the scenario builds; the refused one was paid nothing.
      expect(run.result.rows.map((row) => row.inputTokens)).toEqual([...Array.from({ length: k - 1 }, (_, i) => promptAt(i + 1)), 0]);
      expect(run.result.rows.at(-1)).toMatchObject({ call: k, step: k - 1, costPico: 0, failed: true });
    }
    // Said explicitly, 4096 is the default.
    expect(runs({ ...NO_BRAKES, maxOutputTokens: 4096 }).map((run) => run.result)).toEqual(runs(NO_BRAKES).map((run) => run.result));
  });

  it('with max_tokens 100 (--max-output-tokens 100) the same runs go on to call 11, refused there though its prompt is within the window', () => {
    const k = REFUSED_AT[100];
    expect(promptAt(k)).toBeLessThanOrEqual(WINDOW);
    for (const run of runs({ ...NO_BRAKES, maxOutputTokens: 100 })) {
      expect([run.ending, run.result.stopReason, run.result.steps, run.result.failedCalls]).toEqual(['context_window', 'provider_refused', k - 1, 1]);
      expect(run.calls.at(-1)!.failed!.message).toBe(`prompt of ${promptAt(k)} tokens + max_tokens 100 past the model's context window of ${WINDOW} (synthetic)`);
    }
    expect(runs({ ...NO_BRAKES, maxOutputTokens: 2596 }).map((run) => run.result.steps)).toEqual([9, 9, 9]);
  });

  it('on the command line: replay ends each run at call 5 on gpt-4 (8,192 tokens), at call 9 with --max-output-tokens 100; generate writes the refusal, and its trace replays to the same run', async () => {
    // 1,000 tokens a step from 100 on gpt-4: 4,100 + 4,096 > 8,192 at call 5; 8,100 + 100 > 8,192 at call 9 (8,100 is within the window).
    const dir = tempDir();
    const file = join(dir, 'gpt4.yaml');
    const entry = ['  - behaviour: healthy', '    weight: 1', '    steps: 40', '    outputTokens: 10', '    toolResultTokens: 990'];
    writeFileSync(file, ['scenario: loopcost.scenario/1', 'model: gpt-4', 'provider: openai', 'systemTokens: 100', 'runs: 2', 'population:', ...entry].join('\n') + '\n');
    const replay = async (...flags: string[]) => JSON.parse((await cli('replay', file, '--preset', 'none', ...flags, '--format', 'json')).stdout).runs;
    const byDefault = await replay();
    expect(byDefault.map((run: { steps: number; stopReason: string }) => [run.stopReason, run.steps])).toEqual([['provider_refused', 4], ['provider_refused', 4]]);
    expect(byDefault[0].stopDetail).toBe('the provider refused the call: prompt of 4100 tokens + max_tokens 4096 > context window 8192');
    expect((await replay('--max-output-tokens', '100')).map((run: { steps: number }) => run.steps)).toEqual([8, 8]);

    const generated = await cli('generate', file);
    expect(generated.code, generated.stderr).toBe(0);
    const lines = generated.stdout.trim().split('\n').map((line) => JSON.parse(line));
    const calls = lines.filter((line) => line.type === 'call');
    expect(calls.at(-1).failed).toEqual({
      status: 400,
      message: "prompt of 4100 tokens + max_tokens 4096 past the model's context window of 8192 (synthetic)",
      contextLengthExceeded: { promptTokens: 4100, maxOutputTokens: 4096, contextWindowTokens: 8192 },
    });
    expect(lines.filter((line) => line.type === 'end').map((end) => end.status)).toEqual(Array(2).fill("prompt + max_tokens 4096 past the model's context window (synthetic)"));
    const traces = join(dir, 'gpt4.jsonl');
    writeFileSync(traces, generated.stdout);
    const replayed = JSON.parse((await cli('replay', traces, '--preset', 'none', '--format', 'json')).stdout).runs;
    const figures = (run: { stopReason: string; stopDetail: string; steps: number; costUsd: number; failedCalls: number }) => [run.stopReason, run.stopDetail, run.steps, run.costUsd, run.failedCalls];
    // The recording says the provider refused the call: replayed, the run ends there, that call no step.
    expect(replayed.map(figures)).toEqual(byDefault.map(figures));
  });
});
