/**
 * Every file a command writes is said the one way (src/cli/actions/output.ts announceWritten): one line on
 * stderr, `loopcost: <what> written to <file>[ (<detail>)]`, terminal or pipe alike, never on stdout.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { tempDir } from './run.js';

const PAIR = 'scenarios/recorded-pair.jsonl';
const FLIGHT = 'scenarios/flight-search.yaml';
const REFERENCE = 'scenarios/reference-sum-of-squares.yaml';
const MINI = '../shared/traces/mini-swe-agent';
const DEEPSEEK_PRICES = 'test/fixtures/prices/deepseek-recorded.json';

/** The command piped (no terminal: io.columns unset) unless `columns` is given. */
async function run(argv: string[], columns?: number) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd: process.cwd(), ...(columns === undefined ? {} : { columns }) });
  return { code, stdout, stderr };
}

/** The stderr lines that say a file was written. */
const announced = (stderr: string) => stderr.split('\n').filter((line) => line.includes(' written to '));

describe('a file written is said one way, on stderr, terminal or pipe', () => {
  it('replay --out: the same line piped as at a terminal, last on stderr, nothing on stdout', async () => {
    const out = join(tempDir(), 'r.txt');
    for (const columns of [undefined, 100]) {
      const r = await run(['replay', PAIR, '--out', out], columns);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(announced(r.stderr)).toEqual([`loopcost: report written to ${out} (table)`]);
      expect(r.stderr.endsWith(`loopcost: report written to ${out} (table)\n`)).toBe(true);
    }
  });

  it('generate --out and import --out: the count, with the loopcost: prefix', async () => {
    const dir = tempDir();
    const generated = join(dir, 'gen.jsonl');
    const g = await run(['generate', FLIGHT, '--out', generated]);
    expect(g.code, g.stderr).toBe(0);
    expect(g.stdout).toBe('');
    const runs = readFileSync(generated, 'utf8').split('\n').filter((line) => line.includes('"type":"header"')).length;
    expect(g.stderr).toBe(`loopcost: ${runs} synthetic runs of ${FLIGHT} written to ${generated}\n`);
    const imported = join(dir, 'pair.jsonl');
    const i = await run(['import', PAIR, '--out', imported]);
    expect(i.code, i.stderr).toBe(0);
    expect(announced(i.stderr)).toEqual([`loopcost: 2 runs from 1 file written to ${imported}`]);
  });

  it('--report-dir: said on stderr, the table alone on stdout', async () => {
    for (const [command, names] of [
      ['replay', 'replay.json, replay.csv, replay.txt, replay-chart.txt, replay-steps.csv'],
      ['sweep', 'sweep.json, sweep.csv, sweep.txt, sweep-chart.txt'],
    ] as const) {
      const dir = join(tempDir(), 'reports');
      const args = command === 'sweep' ? [command, PAIR, '--grid', 'max-steps=5,10', '--report-dir', dir, '--workers', '1'] : [command, PAIR, '--report-dir', dir];
      const r = await run(args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(/written/);
      expect(announced(r.stderr)).toEqual([`loopcost: reports written to ${dir} (${names})`]);
    }
  });

  it('check --update-baseline and --junit, prices derive --out, fit --out: the same form', async () => {
    const dir = tempDir();
    const baseline = join(dir, 'baseline.json');
    const junit = join(dir, 'check.xml');
    const check = await run(['check', REFERENCE, '--update-baseline', baseline, '--junit', junit]);
    expect(announced(check.stderr)).toEqual([`loopcost: JUnit report written to ${junit}`, `loopcost: baseline of 1 scenario written to ${baseline} (compare later runs with --baseline ${baseline})`]);
    const prices = join(dir, 'prices.json');
    const derive = await run(['prices', 'derive', MINI, '--out', prices, '--format', 'json']);
    expect(derive.code, derive.stderr).toBe(0);
    expect(JSON.parse(derive.stdout)).toHaveProperty('priceFile');
    expect(announced(derive.stderr)).toEqual([`loopcost: price file written to ${prices} (LiteLLM format; price runs with it: --prices-override ${prices})`]);
    const profile = join(dir, 'profile.yaml');
    const fit = await run(['fit', MINI, '--prices', DEEPSEEK_PRICES, '--out', profile]);
    expect(fit.code, fit.stderr).toBe(0);
    expect(fit.stdout).toBe('');
    expect(announced(fit.stderr)).toEqual([`loopcost: scenario profile written to ${profile}`]);
  });

  it('nothing said when nothing is written (the report on stdout)', async () => {
    for (const columns of [undefined, 100]) expect((await run(['replay', PAIR], columns)).stderr).not.toMatch(/written/);
  });
});
