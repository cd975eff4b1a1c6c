/**
 * The reference agent loop on loopcost's real loop: the goal is the sum of the squares of 1..100,
 * checked once; one tool, `run_python` (10 s timeout); the four reference brakes (12 steps, $0.50,
 * 120 s, the same action 3 times). It prints how the run ended, as the reference loop does.
 *
 *   OPENAI_API_KEY=… npm run example:reference                      # OpenAI
 *   OPENAI_BASE_URL=http://127.0.0.1:8080/v1 OPENAI_API_KEY=x \
 *     npm run example:reference                                     # any compatible server (loopcost serve)
 *   REFERENCE_MODEL=gpt-4o npm run example:reference                # another model (default gpt-4o-mini)
 */
import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import {
  defineTool,
  fileRecorder,
  formatUsd,
  loadPriceTable,
  openAIChatModel,
  REFERENCE_PRESET,
  runAgentLoop,
  type AgentRunResult,
  type Clock,
  type Model,
  type ModelPricing,
  type TraceRecorder,
} from '../dist/index.js';

export const SYSTEM = 'You are a careful assistant. Use the run_python tool to compute; answer with the number only.';
export const GOAL = 'What is the sum of the squares of the integers 1..100? Compute it, check it once another way, then answer.';

/** Runs Python code (python3) for at most 10 s; a non-zero exit or a timeout is an error observation. */
export const runPython = defineTool<{ code: string }>({
  name: 'run_python',
  description: 'Run a Python 3 program and return what it prints (10 s timeout).',
  parameters: { type: 'object', properties: { code: { type: 'string', description: 'the program' } }, required: ['code'] },
  run: ({ code }, { signal }) =>
    new Promise((resolve, reject) => {
      execFile('python3', ['-c', code], { timeout: 10_000, ...(signal ? { signal } : {}) }, (error, stdout, stderr) => {
        if (error) reject(new Error(error.killed ? 'timed out after 10 s' : (stderr.trim().split('\n').at(-1) ?? error.message)));
        else resolve(stdout.trim());
      });
    }),
});

export interface ReferenceOptions {
  model: Model;
  pricing: ModelPricing;
  recorder?: TraceRecorder;
  clock?: Clock;
  signal?: AbortSignal;
}

export function referenceAgent(options: ReferenceOptions): Promise<AgentRunResult> {
  return runAgentLoop({
    model: options.model,
    tools: [runPython],
    brakes: REFERENCE_PRESET,
    context: { system: SYSTEM, goal: GOAL },
    pricing: options.pricing,
    task: 'sum of squares of 1..100',
    ...(options.recorder ? { recorder: options.recorder } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/**
 * The reference loop's last lines: stop reason, steps, tokens, spend. A run with sub-agent tools: its
 * figures are its own (`run.costPico`, `run.steps`), so spend is the tree's (`run.tree.totals`).
 */
export function summaryLines(run: AgentRunResult): string[] {
  const own = `steps: ${run.steps}  calls: ${run.calls}  tokens: ${run.inputTokens} in (${run.cachedInputTokens} cached) + ${run.outputTokens} out`;
  const spent = run.tree === undefined
    ? `spent: ${formatUsd(run.costPico, 6)}`
    : `spent: ${formatUsd(run.tree.totals.costPico, 6)} with its sub-agents (${run.tree.agents.length} agents, ${run.tree.totals.steps} steps; this agent ${formatUsd(run.costPico, 6)})`;
  return [`answer: ${run.finalText ?? '(none)'}`, `stop: ${run.stop.reason} (${run.stop.detail})`, `${own}  ${spent}`];
}

async function main(): Promise<void> {
  const modelName = process.env['REFERENCE_MODEL'] ?? 'gpt-4o-mini';
  const pricing = loadPriceTable().resolve(modelName);
  const recording = process.env['REFERENCE_TRACE'];
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  const run = await referenceAgent({
    model: openAIChatModel({ model: modelName }),
    pricing,
    signal: controller.signal,
    ...(recording ? { recorder: fileRecorder(recording) } : {}),
  });
  for (const line of summaryLines(run)) console.log(line);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
