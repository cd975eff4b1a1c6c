/**
 * The real loop (runAgentLoop, openAIChatModel) against `loopcost serve SCENARIO` decides backtracks and
 * masking as the replay of the same scenario, run and seed does — per run: stop reason, steps, calls, cost.
 *
 * 1. A served backtrack is a backtrack to the loop: the adapter reads serve's `loopcost.record.backtrack`
 *    (openaiResponse.ts turnOf) into the turn's marks, so the step it abandons leaves the prompt and the
 *    backtrack limit counts it. Before, it read as a final answer (`finish_reason: "stop"`, text): `completed`.
 *    So does a served unparseable response (`loopcost.record.unparseable`, a sloppy agent's): a step, no answer.
 * 2. A served synthetic agent sees masking: serve derives the view's firstUnmaskedStep from the messages (the
 *    first step from which every tool result still holds the text first sent for it: synthetic.ts), so a
 *    forgetful agent whose observation was masked reads it again, as replay's agent does. Before, a masked
 *    result still counted as seen: the runs completed as under full history.
 *
 * The prompts are the CLI's to the token (as test/serve/syntheticGrowth.test.ts sets them up): the chat
 * framing is the scenario's promptOverhead, tools answer with texts of the sizes serve's record gives, and
 * the strategy's placeholder is the size of the masked tool message the real loop sends.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { MASKED_OUTPUT } from '../../src/agent/conversation.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { countChatTokens } from '../../src/import/tokenCount.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { parseScenario } from '../../src/scenario/load.js';
import { scenarioRuns } from '../../src/scenario/run.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { textOfTokens } from '../../src/serve/sizedText.js';
import { servedResultTool, serveClient } from '../agent/serveClient.js';
import { get } from './client.js';

const HEAD = `
scenario: loopcost.scenario/1
model: gpt-4o-mini
provider: openai
systemTokens: 100
goalTokens: 20
promptOverhead: { fixedTokens: 11, perStepTokens: 4 }
hardCapSteps: 60
seed: 3
`;
const BACKTRACKER = parseScenario(`${HEAD}name: backtracks
population:
  - behaviour: backtracker
    weight: 1
    steps: { kind: uniform, min: 5, max: 20 }
    backtrackShare: 0.4
    outputTokens: { kind: uniform, min: 60, max: 200 }
    toolResultTokens: { kind: uniform, min: 100, max: 400 }
`, 'backtracks.yaml');
const FORGETFUL = parseScenario(`${HEAD}name: forgets
population:
  - behaviour: forgetful
    weight: 1
    steps: { kind: uniform, min: 5, max: 15 }
    observationTokens: 5000
    needEvery: 2
    outputTokens: { kind: uniform, min: 60, max: 200 }
    toolResultTokens: 60
`, 'forgets.yaml');

const SLOPPY = parseScenario(`${HEAD}name: sloppy
population:
  - behaviour: sloppy
    weight: 1
    steps: { kind: uniform, min: 5, max: 12 }
    unparseableShare: 0.3
    outputTokens: { kind: uniform, min: 60, max: 200 }
    toolResultTokens: { kind: uniform, min: 100, max: 400 }
`, 'sloppy.yaml');

const prices = loadPriceTable();
/** The masked tool message the real loop sends, as serve counts it (its framing included, no reply priming). */
const PLACEHOLDER_TOKENS = countChatTokens([{ role: 'tool', content: MASKED_OUTPUT }], 'gpt-4o-mini') - 3;
const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

interface Figures {
  stop: string;
  steps: number;
  calls: number;
  costPico: number;
}

/** Runs 1..runs of the scenario through runAgentLoop → openai SDK → HTTP → serve, each in its own session; each session's spend too. */
async function servedRuns(scenario: typeof BACKTRACKER, settings: { brakes: BrakeConfig; strategy: ContextStrategy; runs: number }): Promise<{ real: Figures[]; sessionCostPico: string[] }> {
  const server = await startServer({ sources: { scenario: { scenario, settings: { seed: 3, strategy: settings.strategy } } }, prices, port: 0 });
  servers.push(server);
  const real: Figures[] = [];
  for (let run = 1; run <= settings.runs; run++) {
    const { client, last } = serveClient(server, { session: `run-${run}` });
    const tool = servedResultTool(last);
    // The run's own adapter reads every answer, marks included: the harness reads serve's extension only to size tool results.
    const model = openAIChatModel({ model: 'gpt-4o-mini', client, headers: { 'x-loopcost-run': String(run) } });
    const result = await runAgentLoop({
      model,
      tools: ['search', 'read_log', 'write_section', 'run'].map(tool),
      brakes: settings.brakes,
      context: { system: textOfTokens(100, '', 'o200k_base'), goal: textOfTokens(20, '', 'o200k_base'), strategy: settings.strategy },
      pricing: prices.resolve('gpt-4o-mini'),
      retry: { maxRetries: 0 },
    });
    real.push({ stop: result.stop.reason, steps: result.steps, calls: result.calls, costPico: result.costPico });
  }
  const sessions = (await get(server.url, '/loopcost/sessions')).json.sessions as { id: string; costPico: string }[];
  return { real, sessionCostPico: real.map((_r, i) => sessions.find((s) => s.id === `run-${i + 1}`)!.costPico) };
}

function replayed(scenario: typeof BACKTRACKER, settings: { brakes: BrakeConfig; strategy: ContextStrategy; runs: number }): Figures[] {
  return [...scenarioRuns(scenario, { prices, runs: settings.runs, seed: 3, brakes: settings.brakes, strategy: settings.strategy }, false)].map(({ result }) => ({ stop: result.stopReason, steps: result.steps, calls: result.modelCalls, costPico: result.costPico }));
}

const RUNS = 8;

describe('the real loop against serve decides backtracks as replay does', () => {
  it('under a backtrack limit: per run, stop reason, steps, calls and cost as replay; each session spent what the run billed', async () => {
    const settings = { brakes: { ...NO_BRAKES, maxSteps: 60, maxBacktracks: 1 }, strategy: { kind: 'full', cache: 'off' } as ContextStrategy, runs: RUNS };
    const want = replayed(BACKTRACKER, settings);
    expect(want.filter((r) => r.stop === 'backtrack_limit').length).toBeGreaterThanOrEqual(RUNS / 2);
    const { real, sessionCostPico } = await servedRuns(BACKTRACKER, settings);
    expect(real).toEqual(want);
    expect(sessionCostPico).toEqual(real.map((r) => String(r.costPico)));
  });

  it('without a backtrack limit: each backtrack drops its step from the prompt, and the run completes as replay\'s', async () => {
    const settings = { brakes: { ...NO_BRAKES, maxSteps: 60 }, strategy: { kind: 'full', cache: 'off' } as ContextStrategy, runs: RUNS };
    const want = replayed(BACKTRACKER, settings);
    expect(want.every((r) => r.stop === 'completed' && r.calls > r.steps)).toBe(true);
    expect((await servedRuns(BACKTRACKER, settings)).real).toEqual(want);
  });
});

describe('the real loop against serve takes an unparseable answer as replay does', () => {
  it('a served unparseable response is a step that makes no progress, not a final answer: per run as replay, under a step cap', async () => {
    const settings = { brakes: { ...NO_BRAKES, maxSteps: 8 }, strategy: { kind: 'full', cache: 'off' } as ContextStrategy, runs: RUNS };
    const want = replayed(SLOPPY, settings);
    expect(want.filter((r) => r.stop === 'max_steps').length).toBeGreaterThanOrEqual(2);
    expect((await servedRuns(SLOPPY, settings)).real).toEqual(want);
  });
});

describe('the real loop against serve masks as replay does: a forgetful agent re-reads what masking hid', () => {
  const brakes = { ...NO_BRAKES, maxSteps: 60, maxRepeat: 3 };
  it.each<[string, ContextStrategy]>([
    ['mask:2', { kind: 'mask', maskSteps: 2, placeholderTokens: PLACEHOLDER_TOKENS, cache: 'off' }],
    ['mask:2,batch=5', { kind: 'mask', maskSteps: 2, maskBatchSteps: 5, placeholderTokens: PLACEHOLDER_TOKENS, cache: 'off' }],
    ['window:2', { kind: 'window', windowSteps: 2, cache: 'off' }],
    ['full history', { kind: 'full', cache: 'off' }],
  ])('%s: per run, stop reason, steps, calls and cost as replay', async (name, strategy) => {
    const settings = { brakes, strategy, runs: RUNS };
    const want = replayed(FORGETFUL, settings);
    if (name === 'mask:2' || name === 'window:2') expect(want.filter((r) => r.stop === 'repeat').length).toBeGreaterThanOrEqual(RUNS / 2);
    const { real, sessionCostPico } = await servedRuns(FORGETFUL, settings);
    expect(real).toEqual(want);
    expect(sessionCostPico).toEqual(real.map((r) => String(r.costPico)));
  });
});
