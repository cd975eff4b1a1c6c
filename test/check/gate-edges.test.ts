/**
 * What an audit found at the edges of `check` as a CI gate: with no expectation and no baseline it
 * passed vacuously (`PASS: 1 scenario, 0 expectations`); `--update-baseline -` wrote a file named `-`;
 * `--baseline /dev/stdin < baseline.json` keyed scenarios from /dev and reported every one GONE and new;
 * `--tolerance 1e-3` was refused though every number flag takes an exponent.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTolerance } from '../../src/check/baseline.js';
import { baselineKeys } from '../../src/cli/actions/checkBaseline.js';
import { cli, tempDir } from '../cli/run.js';

const REFERENCE = 'scenarios/reference-sum-of-squares.yaml';
const BIN = resolve('bin/loopcost.js');

describe('a check with nothing to check', () => {
  it('is exit 2 before any run, saying what to add; a baseline to compare with or to write is something to check', async () => {
    const dir = tempDir();
    const bare = join(dir, 'bare.yaml');
    writeFileSync(bare, `scenario: loopcost.scenario/1\ntraces: [${resolve('scenarios/recorded-pair.jsonl')}]\n`);
    const empty = join(dir, 'empty.yaml');
    writeFileSync(empty, `scenario: loopcost.scenario/1\ntraces: [${resolve('scenarios/recorded-pair.jsonl')}]\nexpect: { runs: {}, population: { costPerRunUsd: {} } }\n`);

    const one = await cli('check', bare);
    expect(one.code).toBe(2);
    expect(one.stdout).toBe('');
    expect(one.stderr).toMatch(new RegExp(`^loopcost: ${bare} field 'expect': the scenario file holds no expectation \\(no \`expect:\` block, or one with no bound\\) and no --baseline is given: check would pass whatever its runs do \\(add an \`expect:\` block`));
    expect(one.stderr).toContain('write one with --update-baseline FILE, then check with --baseline FILE');
    const both = await cli('check', bare, empty);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(`loopcost: <arguments>: none of the 2 scenario files (${bare} and ${empty}) holds an expectation`);

    // One scenario with expectations is something to check; so is a baseline written or compared with.
    expect((await cli('check', bare, REFERENCE)).code).toBe(0);
    const baseline = join(dir, 'baseline.json');
    expect((await cli('check', bare, '--update-baseline', baseline)).code).toBe(0);
    const compared = await cli('check', bare, '--baseline', baseline);
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stdout).toMatch(/^loopcost check: PASS: 1 scenario, 0 expectations, 0 failed, 1 of 1 baseline scenario matched/);
  });
});

describe("'-' among check's files", () => {
  it('--update-baseline - and --junit - are refused (standard output carries the report), writing no file named -', () => {
    const dir = tempDir();
    for (const flag of ['--update-baseline', '--junit']) {
      const r = spawnSync(process.execPath, [BIN, 'check', resolve(REFERENCE), flag, '-'], { cwd: dir, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^loopcost: <command line> field '${flag}': '-' is standard output, which carries check's report: the file ${flag} writes would be mixed into it`));
      expect(existsSync(join(dir, '-'))).toBe(false);
    }
  });

  it("--baseline - is refused with what to give, not 'no such file' and a command writing '-'", async () => {
    const r = await cli('check', REFERENCE, '--baseline', '-');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^loopcost: <command line> field '--baseline': '-' \(standard input\) is not read as a baseline/);
    expect(r.stderr).not.toContain('--update-baseline -');
  });
});

describe('a baseline read through standard input', () => {
  it('--baseline /dev/stdin < FILE keys scenarios from the file it is redirected from, and says so', () => {
    const dir = tempDir();
    const scenarios = join(dir, 'scenarios');
    mkdirSync(scenarios);
    copyFileSync(REFERENCE, join(scenarios, 'reference.yaml'));
    const baseline = join(scenarios, 'baseline.json');
    expect(spawnSync(process.execPath, [BIN, 'check', 'scenarios', '--update-baseline', baseline], { cwd: dir, encoding: 'utf8' }).status).toBe(0);
    const stdin = openSync(baseline, 'r');
    try {
      const r = spawnSync(process.execPath, [BIN, 'check', 'scenarios', '--baseline', '/dev/stdin'], { cwd: dir, encoding: 'utf8', stdio: [stdin, 'pipe', 'pipe'] });
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^loopcost check: PASS: 1 scenario, \d+ expectations, 0 failed, 1 of 1 baseline scenario matched, 0 baseline figures drifted/);
      expect(r.stdout.replace(/\s+/g, ' ')).toContain(`keys: /dev/stdin is read from ${baseline}: scenario files are matched by their path relative to ${scenarios}`);
    } finally {
      closeSync(stdin);
    }
  });

  it('through a descriptor with no file behind it, keys are read from the current directory, and the note says so', () => {
    const keyed = baselineKeys('/dev/null');
    expect(keyed.keys.keyOf('scenarios/x.yaml')).toBe('scenarios/x.yaml');
    expect(keyed.keysNote).toBe(`/dev/null is not a file in a directory: scenario files are matched by their path relative to the current directory, ${process.cwd()}`);
    expect(baselineKeys('scenarios/baseline.json')).toEqual({ keys: expect.anything() });
    expect(baselineKeys('scenarios/baseline.json').keys.keyOf('scenarios/x.yaml')).toBe('x.yaml');
  });
});

describe('--tolerance', () => {
  it('takes a number as every number flag does, exponent too (1e-3, 1e-1%)', async () => {
    expect(parseTolerance('1e-3')).toBe(0.001);
    expect(parseTolerance('1E-1%')).toBeCloseTo(0.001, 15);
    expect(parseTolerance('.05')).toBe(0.05);
    for (const bad of ['1e', 'e-3', '1e-3e1', '2e0', '-1e-3', 'Infinity']) expect(() => parseTolerance(bad), bad).toThrow(/--tolerance/);
    const dir = tempDir();
    const baseline = join(dir, 'baseline.json');
    expect((await cli('check', REFERENCE, '--update-baseline', baseline)).code).toBe(0);
    const r = await cli('check', REFERENCE, '--baseline', baseline, '--tolerance', '1e-3');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`baseline: ${baseline}, tolerance 0.1% (rates in points, money as a share of the baseline)`);
  });
});
