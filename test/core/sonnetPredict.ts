/**
 * The claude-sonnet-4 scenario the predictive bound's cache-write tests run (cacheWritesBound,
 * cacheOffBound): one healthy agent of 8 steps, each adding 3,200 tokens (200 out, 3,000 of tool result) to a
 * 2,100-token prompt, under `cache`; its run as `generate` writes it, and that recording marked recorded.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

function scenarioText(cache: 'on' | 'off'): string {
  return [
    'scenario: loopcost.scenario/1',
    'model: claude-sonnet-4',
    'provider: anthropic',
    'systemTokens: 2000',
    'goalTokens: 100',
    `context: { context: full, cache: ${cache} }`,
    'runs: 1',
    'population:',
    '  - behaviour: healthy',
    '    weight: 1',
    '    steps: 8',
    '    outputTokens: 200',
    '    toolResultTokens: 3000',
    '    tool: read_file',
    '',
  ].join('\n');
}

export const PREDICT = ['--budget-mode', 'predict', '--format', 'json'];

export type Figures = { stopReason: string; steps: number; costUsd: number };
export const figures = (r: Figures): Figures => ({ stopReason: r.stopReason, steps: r.steps, costUsd: r.costUsd });

export interface Report {
  runs: Figures[];
  configurations?: (Figures & { settings: string; stopReasons: Record<string, number> })[];
  trees?: { stopReason: string; totals: { steps: number; costUsd: number } }[];
}

/** The command's JSON report (it must exit 0). */
export async function json(...args: string[]): Promise<Report> {
  const out = await cli(...args);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout);
}

/** The scenario file under `cache`, its run as `generate` writes it, and that recording with `origin: recorded`. */
export async function sonnetInputs(cache: 'on' | 'off'): Promise<{ scenario: string; generated: string; recorded: string }> {
  const dir = tempDir();
  const scenario = join(dir, `sonnet-cache-${cache}.yaml`);
  writeFileSync(scenario, scenarioText(cache));
  const generated = join(dir, 'generated.jsonl');
  expect((await cli('generate', scenario, '--out', generated)).code).toBe(0);
  const recorded = join(dir, 'recorded.jsonl');
  writeFileSync(recorded, readFileSync(generated, 'utf8').replace('"origin":"synthetic"', '"origin":"recorded"'));
  return { scenario, generated, recorded };
}
