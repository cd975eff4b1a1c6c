/**
 * Small real-loop recordings for the `contexts` tests: the shared traces state no context strategy (header
 * `context`), which only a recording runAgentLoop writes under a strategy does, so these are written here.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A live gpt-4o-mini recording in `dir`, stating `spec` as the strategy its loop ran under when given: a tool
 * call whose prompt is `prompts[0]` tokens, then a final answer at `prompts[1]` (default 22 and 70).
 */
export function liveRecording(dir: string, name: string, spec: string | undefined, prompts: readonly [number, number] = [22, 70]): string {
  const header = { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 4, goalTokens: 7, origin: 'recorded', live: true, ...(spec === undefined ? {} : { context: { spec } }) };
  const calls = [
    { type: 'call', inputTokens: prompts[0], outputTokens: 5, toolCalls: [{ name: 't', arguments: {}, resultTokens: 40 }] },
    { type: 'call', inputTokens: prompts[1], outputTokens: 5, final: true },
    { type: 'end', outcome: 'completed' },
  ];
  const file = join(dir, name);
  writeFileSync(file, [header, ...calls].map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}

/** A --prices-override in `dir` giving gpt-4o-mini a `windowTokens` context window: `['--prices-override', FILE]`. */
export function windowOverride(dir: string, windowTokens: number): string[] {
  const file = join(dir, 'window.json');
  writeFileSync(file, JSON.stringify({ 'gpt-4o-mini': { max_input_tokens: windowTokens } }));
  return ['--prices-override', file];
}
