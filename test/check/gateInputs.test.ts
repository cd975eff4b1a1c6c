/**
 * What a CI gate's inputs are told (a review's findings): two scenario files of one name are refused (the
 * report and JUnit could not tell them apart), a mistake in `expect:` points to docs/check.md and a quantile
 * no check measures says which there are, and a price table left in a checked directory is said to be no
 * trace.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const SUPPORT = 'test/check/gateSignal-support.yaml';

function copy(dir: string, name: string, edits: (text: string) => string = (text) => text): string {
  const file = join(dir, name);
  writeFileSync(file, edits(readFileSync(SUPPORT, 'utf8')));
  return file;
}

describe('two scenario files of one name', () => {
  it('are refused (exit 2), naming both files and the line of each name, nothing written', async () => {
    const dir = tempDir();
    const a = copy(dir, 'a.yaml');
    const b = copy(dir, 'b.yaml', (text) => text.replace('max-steps: 15', 'max-steps: 40'));
    const junit = join(dir, 'check.xml');
    const r = await cli('check', dir, '--junit', junit);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `loopcost: ${b}:line 3 field 'name': "support agent" is also the name of ${a} (line 3): a check names each scenario by its name (the report's headings and failures, JUnit's testsuite and classname), so the two could not be told apart (give each scenario file a \`name:\` of its own (e.g. "support agent (strict)"); a CI system keys each test's history by these names)\n`,
    );
    writeFileSync(b, readFileSync(b, 'utf8').replace('name: support agent', 'name: support agent (loose)'));
    expect((await cli('check', dir, '--junit', junit)).code).toBe(0);
  });
});

describe('a mistake in expect:', () => {
  it('points to docs/check.md, where expectations are described', async () => {
    const file = copy(tempDir(), 's.yaml', (text) => text.replace('completionRate: { min: 0.8 }', 'completionRat: { min: 0.8 }'));
    const r = await cli('check', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`loopcost: ${file}:line 17 field 'expect.population': unknown field completionRat (did you mean completionRate?; expectations are described in docs/check.md (and schema/scenario-v1.schema.json))\n`);
  });

  it('a quantile no check measures (p90) is told the ones there are, not "did you mean p50?"', async () => {
    const file = copy(tempDir(), 's.yaml', (text) => text.replace('mean: { max: 0.004 } }', 'mean: { max: 0.004 }, p90: { max: 1 } }'));
    const r = await cli('check', file);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('did you mean');
    expect(r.stderr).toContain("field 'expect.population.costPerRunUsd': unknown field p90 (costPerRunUsd bounds mean, p50, p95 and max (nearest-rank quantiles of run cost): no other quantile is measured; expectations are described in docs/check.md");
  });

  it('a mistake elsewhere in the file still points to docs/scenarios.md', async () => {
    const file = copy(tempDir(), 's.yaml', (text) => text.replace('hardCapSteps: 150', 'hardCapStep: 150'));
    const r = await cli('check', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('see docs/scenarios.md');
  });
});

describe('a price table in a checked directory', () => {
  it('is said to be neither a trace nor a scenario file, apart from the traces left out', async () => {
    const dir = join(tempDir(), 'scenarios');
    mkdirSync(dir);
    copy(dir, 'support.yaml');
    writeFileSync(join(dir, 'prices-next.json'), '{"models": []}\n');
    copyFileSync('scenarios/long-exploration.jsonl', join(dir, 'stray.jsonl'));
    const r = await cli('check', dir);
    expect(r.stderr).toBe(
      `loopcost: 1 trace file among the inputs left out (${join(dir, 'stray.jsonl')}): check runs only the traces a scenario file names under 'traces:'\n` +
        `loopcost: 1 file among the inputs left out (${join(dir, 'prices-next.json')}): is neither a trace nor a scenario file (check reads scenario files, and the traces they name under 'traces:'; a price table is given with --prices or --prices-override)\n`,
    );
  });
});
