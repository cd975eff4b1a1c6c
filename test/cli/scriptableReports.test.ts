/**
 * Reports a script can trust: what a command says on stderr about its inputs (files --skip-bad left out,
 * inputs given twice, calibrate's missing ground truth, a --cache-dir that takes no file) is in the
 * report's `warnings` too; `import` to standard output writes nothing when an input is of no format;
 * `--out` of native JSONL needs its extension; a --report-dir that fails leaves no directory it made;
 * `curve --format csv --compare-context` carries every strategy; JSON names its units and its tool.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFilesAtomic } from '../../src/io/atomicWrite.js';
import { cli, ONE_CALL_RUN, tempDir } from './run.js';

const TRACE = 'scenarios/long-exploration.jsonl';

/** A file of no format loopcost reads, and the inputs that name it beside a good trace given twice. */
function badInputs(): { bad: string; args: string[] } {
  const bad = join(tempDir(), 'bad.jsonl');
  writeFileSync(bad, 'not a trace\n');
  return { bad, args: [TRACE, bad, TRACE, '--skip-bad'] };
}

interface Warning {
  code: string;
  message: string;
  files?: string[];
  issues?: { file?: string; code: string; message: string }[];
}

const codes = (warnings: Warning[]) => warnings.map((w) => w.code);

describe('inputs left out or given twice are in the JSON warnings', () => {
  const commands: [string, ...string[]][] = [
    ['replay'],
    ['whatif', '--try', 'max-steps=5'],
    ['compare'],
    ['contexts'],
    ['calibrate'],
    ['project', '--days', '2', '--trials', '10'],
  ];
  for (const [command, ...flags] of commands) {
    it(`${command}: skipped_inputs names the file and its problem, repeated_inputs the input given twice`, async () => {
      const { bad, args } = badInputs();
      const r = await cli(command, ...args, ...flags, '--format', 'json');
      expect(r.code, r.stderr).toBe(0);
      const warnings = JSON.parse(r.stdout).warnings as Warning[];
      expect(codes(warnings).slice(0, 2)).toEqual(['repeated_inputs', 'skipped_inputs']);
      const skipped = warnings.find((w) => w.code === 'skipped_inputs')!;
      expect(skipped.files).toEqual([bad]);
      expect(skipped.issues).toEqual([expect.objectContaining({ file: bad, code: 'unknown_format', message: 'is not a trace format loopcost reads' })]);
      expect(skipped.message).toContain(`left out 1 of 2 input files with problems (--skip-bad)`);
      expect(warnings.find((w) => w.code === 'repeated_inputs')!.files).toEqual([TRACE]);
      // Said on stderr as they were read, once.
      expect(r.stderr.match(/skipped 1 of 2 input files/g)).toHaveLength(1);
    });
  }

  it('a table lists them with its warnings; a CSV leaves them to stderr, said once there', async () => {
    const { args } = badInputs();
    const table = await cli('replay', ...args);
    expect(table.stdout).toMatch(/warning: left out 1 of 2 input files with problems/);
    expect(table.stdout).toMatch(/warning: 1 input given more than once/);
    const csv = await cli('replay', ...args, '--format', 'csv');
    expect(csv.code).toBe(0);
    expect(csv.stderr.match(/input files with problems/g)).toHaveLength(1);
    expect(csv.stderr.match(/given more than once/g)).toHaveLength(1);
  });

  it("calibrate's note that no input has ground truth is a warning of its report, said once", async () => {
    const r = await cli('calibrate', TRACE, '--format', 'json');
    expect(codes(JSON.parse(r.stdout).warnings)).toContain('no_ground_truth');
    const csv = await cli('calibrate', TRACE, '--format', 'csv');
    expect(csv.stderr.match(/no scenario file or generated trace among the inputs/g)).toHaveLength(1);
  });

  it('prices derive carries them (and its tool) in its JSON', async () => {
    // Runs that recorded their cost (mini-swe-agent trajectories), given twice beside a bad file.
    const mini = '../shared/traces/mini-swe-agent';
    const { bad } = badInputs();
    const r = await cli('prices', 'derive', mini, bad, mini, '--skip-bad', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.tool.name).toBe('loopcost');
    expect(codes(report.warnings)).toEqual(['repeated_inputs', 'skipped_inputs']);
  });
});

describe('--cache-dir that takes no file', () => {
  it.skipIf(!existsSync('/sys/kernel'))('is one warning line and a JSON warning; the command reads without a cache (exit 0)', async () => {
    const r = await cli('replay', TRACE, '--cache-dir', '/sys/kernel', '--format', 'json');
    expect(r.code).toBe(0);
    expect(codes(JSON.parse(r.stdout).warnings)).toEqual(['cache_not_written']);
    expect(r.stderr).toBe("loopcost: warning: --cache-dir '/sys/kernel' cannot be written: permission denied: nothing was cached, every input was read as without a cache\n");
  });
});

describe('import to standard output', () => {
  it('writes nothing when an input is of no format loopcost reads, as its error says', async () => {
    const { bad } = badInputs();
    const r = await cli('import', TRACE, bad);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('1 of 2 input files have problems; nothing was written');
  });

  it('a problem found further into a later file says the runs before it were written already', async () => {
    const dir = tempDir();
    const broken = join(dir, 'broken.jsonl');
    writeFileSync(broken, `${ONE_CALL_RUN}{"type":"call","inputTokens":-1,"outputTokens":5}\n`);
    const r = await cli('import', TRACE, broken);
    expect(r.code).toBe(2);
    expect(r.stdout).not.toBe('');
    expect(r.stderr).toContain('the runs of the files read before it were written already');
    expect(r.stderr).not.toContain('nothing was written');
  });
});

describe('--out of native JSONL', () => {
  it('is refused without a .jsonl extension (exit 2, naming --out and the name to write)', async () => {
    const dir = tempDir();
    const imported = await cli('import', TRACE, '--out', join(dir, 'runs'));
    expect(imported.code).toBe(2);
    expect(imported.stderr).toContain(`field '--out': '${join(dir, 'runs')}' has no .jsonl extension`);
    expect(imported.stderr).toContain(`name it ${join(dir, 'runs.jsonl')}`);
    const generated = await cli('generate', 'scenarios/flight-search.yaml', '--out', join(dir, 'g.gz'));
    expect(generated.code).toBe(2);
    expect(generated.stderr).toContain(`name it ${join(dir, 'g.jsonl.gz')}`);
    expect(existsSync(join(dir, 'runs'))).toBe(false);
  });

  it('a device takes it as it is', async () => {
    expect((await cli('import', TRACE, '--out', '/dev/null')).code).toBe(0);
  });
});

describe('a --report-dir set that fails', () => {
  it('leaves no directory it created behind', () => {
    const top = join(tempDir(), 'made');
    const dir = join(top, 'reports');
    // A name under a directory the set does not hold: writing it fails after the directories are made.
    expect(() => writeFilesAtomic(dir, [['a.txt', 'a'], ['missing/b.txt', 'b']])).toThrow();
    expect(existsSync(top)).toBe(false);
  });
});

describe('curve --format csv --compare-context', () => {
  const args = ['curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '8', '--format', 'csv'];

  it("carries every strategy's curve, a column naming each", async () => {
    const plain = (await cli(...args)).stdout.trim().split('\n');
    const compared = (await cli(...args, '--compare-context', 'window:5;mask:10')).stdout.trim().split('\n');
    expect(compared[0]).toBe(`strategy,${plain[0]}`);
    expect(compared.slice(1).map((line) => line.split(',')[0])).toEqual([...Array(8).fill('full'), ...Array(8).fill('window:5'), ...Array(8).fill('mask:10')]);
    // The run's own curve is the plain CSV's rows, as they were.
    expect(compared.slice(1, 9)).toEqual(plain.slice(1).map((line) => `full,${line}`));
    // window:5 stops growing after 5 steps: its cumulative input differs from full's from step 7 on.
    expect(compared[16]!.split(',')[5]).not.toBe(compared[8]!.split(',')[5]);
  });
});

describe('JSON names its units and its tool', () => {
  it("project's perDayUsd and perPeriodUsd; --suggest-cap's Wilson bound as a number", async () => {
    const r = await cli('project', 'scenarios/production-mix.yaml', '--runs', '40', '--days', '3', '--trials', '20', '--suggest-cap', '0.05', '--format', 'json');
    const report = JSON.parse(r.stdout);
    expect(Object.keys(report)).toEqual(expect.arrayContaining(['perDayUsd', 'perPeriodUsd', 'perRunUsd']));
    expect(Object.keys(report)).not.toContain('perDay');
    expect(report.perPeriodUsd.mean).toBeGreaterThan(report.perDayUsd.mean);
    const cap = report.suggestCap;
    expect(typeof cap.stoppedUpperShare).toBe('number');
    expect(cap.stoppedUpperShare).toBeGreaterThan(cap.stopped / cap.completedRuns);
  });

  it('prices --json names the tool, a model or the list', async () => {
    expect(JSON.parse((await cli('prices', 'gpt-4o', '--json')).stdout).tool.name).toBe('loopcost');
    expect(JSON.parse((await cli('prices', '--json')).stdout).tool.name).toBe('loopcost');
  });
});
