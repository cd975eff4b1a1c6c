/**
 * `check --junit`: each expectation's testcase carries `file` (the scenario file as the report shows it) and
 * `line` (its entry's line in that file), which PR-annotation actions place a failure by.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { renderJunit } from '../../src/check/junit.js';
import type { CheckReport } from '../../src/check/report.js';

/** Each testcase's name → its `file` and `line` attributes (undefined when absent). */
function places(xml: string): Map<string, { file?: string; line?: string }> {
  const cases = [...xml.matchAll(/<testcase classname="[^"]*" name="([^"]*)"([^>]*?)\/?>/g)];
  return new Map(cases.map((m) => [m[1]!, { file: /file="([^"]*)"/.exec(m[2]!)?.[1], line: /line="([^"]*)"/.exec(m[2]!)?.[1] }]));
}

/** The 1-based line of the first line of `text` holding `part`. */
function lineHolding(text: string, part: string): string {
  const index = text.split('\n').findIndex((line) => line.includes(part));
  expect(index, part).toBeGreaterThanOrEqual(0);
  return String(index + 1);
}

describe('check --junit: testcase file and line', () => {
  it('each expectation testcase names its scenario file and its entry line, flow and block style alike; failing and passing', async () => {
    const dir = tempDir();
    const file = join(dir, 'recursive.yaml');
    const original = readFileSync('scenarios/recursive-verification.yaml', 'utf8');
    const block = '  behaviours:\n    never satisfied:\n      stopReason: [repeat, max_steps]\n      steps: { max: 12 }\n      costUsd: { max: 0.03 }\n';
    const text = original.replace('  behaviours:\n    never satisfied: { stopReason: [repeat, max_steps], steps: { max: 12 }, costUsd: { max: 0.03 } }\n', block);
    expect(text).not.toBe(original);
    writeFileSync(file, text);
    const junit = join(dir, 'check.xml');
    const r = await cli('check', file, '--max-repeat', '1000', '--max-steps', '1000', '--runs', '10', '--junit', junit);
    expect(r.code, r.stderr).toBe(1);
    const xml = readFileSync(junit, 'utf8');
    const found = places(xml);
    expect(found.get('behaviours.never satisfied.stopReason')).toEqual({ file, line: lineHolding(text, 'stopReason: [repeat') });
    expect(found.get('behaviours.never satisfied.steps')).toEqual({ file, line: lineHolding(text, 'steps: { max: 12 }') });
    expect(found.get('behaviours.never satisfied.costUsd')).toEqual({ file, line: lineHolding(text, 'costUsd: { max: 0.03 }') });
    // Several entries on one flow line share it.
    expect(found.get('population.costPerRunUsd.p95')).toEqual({ file, line: lineHolding(text, 'population: { costPerRunUsd') });
    // The attributes sit after name; the rest of the testcase is as before.
    expect(xml).toContain(`<testcase classname="recursive verification" name="behaviours.never satisfied.steps" file="${file}" line="${lineHolding(text, 'steps: { max: 12 }')}">\n      <failure type="expectation" message="behaviours.never satisfied.steps: measured 27, limit ≤ 12">`);
  });

  it('a passing expectation carries them too', async () => {
    const junit = join(tempDir(), 'check.xml');
    const r = await cli('check', 'scenarios/flight-search.yaml', '--junit', junit);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync('scenarios/flight-search.yaml', 'utf8');
    const found = places(readFileSync(junit, 'utf8'));
    expect(found.get('runs.steps')).toEqual({ file: 'scenarios/flight-search.yaml', line: lineHolding(text, '  runs: { stopReason') });
    expect(found.get('population.completionRate')).toEqual({ file: 'scenarios/flight-search.yaml', line: lineHolding(text, '  population: { completionRate') });
  });

  it('a check built in memory (no file lines): file only, no line attribute', () => {
    const result = { expectation: 'runs.steps', measured: { min: 3, max: 3 }, measuredText: '3', limit: '≤ 12', pass: true };
    const report = { scenarios: [{ source: 'memory', name: 'm', results: [result] }] } as unknown as CheckReport;
    expect(renderJunit(report)).toContain('<testcase classname="m" name="runs.steps" file="memory"/>\n');
  });
});
