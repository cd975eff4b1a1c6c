/**
 * The README's CI layout keeps the check baseline beside the scenarios (`scenarios/loopcost-baseline.json`).
 * Only check left it out of a directory's files (checkLeftOut.ts read it there); replay, sweep, project,
 * calibrate and the rest read it as a trace and exited 2 (`is not a trace format loopcost reads`). The
 * input collection now tells a check baseline by its content (src/io/checkBaselineFile.ts) for every
 * command: one a directory or glob brings in is left out, said in one line (check, whose file it is, says
 * nothing); one named on its own is refused as a check baseline, saying what reads it. The bundled
 * `*.check.yaml` files (check's settings, recorded `traces:`, no population) are left out by the commands
 * that run populations, their recordings read as traces (src/scenario/checkOnly.ts): nothing is said of them.
 */
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectInputFiles } from '../../src/io/collectInputs.js';
import { cli, ONE_CALL_RUN, tempDir } from './run.js';

const LEFT_OUT = 'check baseline among the inputs left out';

/** A copy of the bundled scenarios/ (relative to the current directory), with the baseline check wrote into it. */
let dir: string;
let baseline: string;

beforeAll(async () => {
  dir = relative(process.cwd(), join(tempDir(), 'scenarios'));
  cpSync('scenarios', dir, { recursive: true });
  baseline = join(dir, 'loopcost-baseline.json');
  const written = await cli('check', dir, '--update-baseline', baseline);
  expect(written.code, written.stderr).toBe(0);
}, 120_000);

describe("a check baseline kept beside the scenarios (the README's CI layout)", () => {
  it('check reads the directory with it and says nothing of it, given it with --baseline or not', async () => {
    for (const flags of [['--baseline', baseline, '--tolerance', '5%'], ['--junit', join(tempDir(), 'check.xml')]]) {
      const r = await cli('check', dir, ...flags);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('left out');
    }
  }, 120_000);

  it.each([
    ['replay'],
    ['whatif', '--try', 'max-steps=5'],
    ['sweep', '--grid', 'max-steps=5,10'],
    ['project'],
    ['calibrate', '--grid', 'max-steps=5,10'],
  ])('%s of the directory leaves it out, said in one line; the *.check.yaml files are left out unsaid', async (...args) => {
    const r = await cli(args[0]!, dir, ...args.slice(1), '--runs', '5', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((line) => line.includes('check baseline'));
    expect(lines).toEqual([`loopcost: 1 ${LEFT_OUT} (${baseline}): it holds loopcost check's measured figures, no runs (loopcost check reads a baseline with --baseline)`]);
    expect(r.stderr).not.toContain('.check.yaml');
    expect(r.stderr).not.toContain('is not a trace format');
  }, 120_000);

  it('commands of recordings alone (compare, contexts) leave it out too', async () => {
    const traces = join(tempDir(), 'recorded');
    mkdirSync(traces);
    writeFileSync(join(traces, 'run.jsonl'), ONE_CALL_RUN);
    cpSync(baseline, join(traces, 'base.json'));
    for (const command of ['compare', 'contexts']) {
      const r = await cli(command, traces);
      expect([command, r.code, r.stderr]).toEqual([command, 0, expect.stringContaining(`loopcost: 1 ${LEFT_OUT} (${join(traces, 'base.json')})`)]);
    }
  }, 120_000);
});

describe('a check baseline named on its own, or all an input brings in', () => {
  it('named: refused as a check baseline, saying what reads it; nothing written', async () => {
    const out = join(tempDir(), 'r.json');
    for (const args of [['replay', baseline], ['sweep', join(dir, 'keeps-asking.yaml'), baseline], ['check', join(dir, 'keeps-asking.yaml'), baseline]]) {
      const r = await cli(...args, '--out', out);
      expect([args[0], r.code]).toEqual([args[0], 2]);
      expect(r.stderr).toContain(`${baseline}: is a check baseline (loopcost check --update-baseline wrote it), not a trace or a scenario file`);
      expect(r.stderr).toContain(`--baseline ${baseline}`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(out)).toBe(false);
    }
  }, 120_000);

  it('a directory or glob that brings in nothing else: refused naming it, not as a directory of no trace files', async () => {
    const only = join(tempDir(), 'only');
    mkdirSync(only);
    cpSync(baseline, join(only, 'base.json'));
    const walked = await cli('replay', only);
    expect(walked.code).toBe(2);
    expect(walked.stderr).toContain(`${only}: holds no trace or scenario file, only a check baseline (${join(only, 'base.json')}), left out`);
    const globbed = await cli('replay', join(only, '*.json'));
    expect(globbed.code).toBe(2);
    expect(globbed.stderr).toContain(`${join(only, '*.json')}: matches no trace or scenario file, only a check baseline`);
  });
});

describe('the input collection (every command, and the library through TraceInputs)', () => {
  it('tells a baseline by its content, whatever its name; a walk looks inside a document name only (.json, .yaml), never a .jsonl', () => {
    const walk = join(tempDir(), 'walk');
    mkdirSync(walk);
    writeFileSync(join(walk, 'run.jsonl'), ONE_CALL_RUN);
    const head = '{\n  "baseline": "loopcost.check-baseline/3",\n  "loopcost": "0.1.0"\n}\n';
    writeFileSync(join(walk, 'kept.json'), head);
    writeFileSync(join(walk, 'kept.yaml'), head);
    writeFileSync(join(walk, 'named-oddly.jsonl'), head);
    const collected = collectInputFiles([walk]);
    expect(collected.checkBaselines).toEqual([join(walk, 'kept.json'), join(walk, 'kept.yaml')]);
    expect(collected.files).toEqual([join(walk, 'named-oddly.jsonl'), join(walk, 'run.jsonl')]);
    // Named on its own, its content is read whatever its name.
    expect(() => collectInputFiles([join(walk, 'named-oddly.jsonl')])).toThrow(/is a check baseline/);
  });
});
