/**
 * Inputs for the `--context-window model` warning of the population commands (windowlessPopulation*.test.ts):
 * the same recorded runs and the same scenario on gemini-2.5-pro, which the bundled price table
 * (@pydantic/genai-prices 0.1.8) gives no context window, and on gpt-4o-mini, which it gives one.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cli, tempDir } from './run.js';

export const WINDOWLESS = 'gemini-2.5-pro';

/** The warning's one line: the model, and the two ways to give a window. */
export const WARNING = /^--context-window model: the price table gives gemini-2\.5-pro no context window, so its runs had no context-window brake; give the window in tokens \(--context-window N\), or price the model from a --prices or --prices-override file whose entry for it gives max_input_tokens$/;

export interface WindowInputs {
  /** The trace files (scenario files are written beside them; `bad/` is left for a test's bad file). */
  dir: string;
  /** scenarios/recorded-pair.jsonl (two runs, gpt-4o-mini) as recorded on gemini-2.5-pro: two files. */
  gemini: string[];
  /** The same runs on gpt-4o-mini. */
  mini: string;
  /** A scenario file on `model` with `brakes` lines (indented under `brakes:`), `runs` runs, `traces` named. */
  scenario(name: string, options: { model: string; brakes?: string[]; traces?: string[]; population?: boolean }): string;
}

export function windowInputs(): WindowInputs {
  const dir = tempDir();
  const recorded = readFileSync('scenarios/recorded-pair.jsonl', 'utf8');
  const gemini = ['gemini-a.jsonl', 'gemini-b.jsonl'].map((name) => join(dir, name));
  for (const file of gemini) writeFileSync(file, recorded.replaceAll('"model":"gpt-4o-mini","provider":"openai"', `"model":"${WINDOWLESS}","provider":"google"`));
  expect(readFileSync(gemini[0]!, 'utf8')).toContain(WINDOWLESS);
  mkdirSync(join(dir, 'bad'));
  const mini = join(dir, 'mini.jsonl');
  writeFileSync(mini, recorded);
  const scenario: WindowInputs['scenario'] = (name, options) => {
    // An expectation that always holds: check refuses a scenario with none (the other commands ignore it).
    // Without a population, `model:` would re-price the recorded runs, and the population's keys are refused (src/scenario/tracesOnlyKeys.ts).
    const synthetic = options.population === false ? [] : [`model: ${options.model}`, 'systemTokens: 10', 'runs: 4'];
    const lines = ['scenario: loopcost.scenario/1', ...synthetic, 'expect: { runs: { steps: { min: 0 } } }'];
    if (options.brakes !== undefined) lines.push('brakes:', ...options.brakes.map((line) => `  ${line}`));
    if (options.traces !== undefined) lines.push('traces:', ...options.traces.map((file) => `  - ${file}`));
    if (options.population !== false) lines.push('population:', '  - behaviour: healthy', '    weight: 1', '    steps: 3', '    outputTokens: 10', '    toolResultTokens: 10');
    const path = join(dir, name);
    writeFileSync(path, lines.join('\n') + '\n');
    return path;
  };
  return { dir, gemini, mini, scenario };
}

/** The `no_context_window` warnings of a JSON report. */
export function windowWarnings(stdout: string): string[] {
  const warnings = JSON.parse(stdout).warnings as { code: string; message: string }[];
  return warnings.filter((w) => w.code === 'no_context_window').map((w) => w.message);
}

/** The table's `warning: …` line of it, unwrapped (the report wraps at its width). */
export function tableWarning(stdout: string): string | undefined {
  const at = stdout.indexOf('warning: --context-window model');
  if (at < 0) return undefined;
  const [first, ...next] = stdout.slice(at + 'warning: '.length).split('\n');
  const line = [first!];
  for (const more of next) {
    if (!/^ {9}\S/.test(more)) break;
    line.push(more.trim());
  }
  return line.join(' ');
}

/** The command's JSON report (it must exit 0): its windowless-model warnings. */
export async function jsonWindowWarnings(...argv: string[]): Promise<string[]> {
  const run = await cli(...argv, '--format', 'json');
  expect(run.code, run.stderr).toBe(0);
  return windowWarnings(run.stdout);
}
