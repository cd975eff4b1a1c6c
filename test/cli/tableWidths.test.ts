/**
 * The README's promise, held for every command: a text report fits 120 columns when piped (no terminal),
 * and the terminal's width when stdout is a narrower one. Each command runs on the bundled scenarios, and
 * where it reads recordings, on the shared mini-swe-agent runs. (`prices` with no model, the list, is not
 * here: only `prices <model>`.) The review found calibrate's rows 144 wide (the false-stop split in its
 * cells) and check's 127 (`pass (within sampling noise)`).
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { displayWidth } from '../../src/report/text.js';
import { join } from 'node:path';
import { tempDir } from './run.js';

const MINI = '../shared/traces/mini-swe-agent';
const PRICES = ['--prices-override', 'test/fixtures/prices/deepseek-recorded.json'];

/** Each command as a user runs it (README's examples where it has one), text output. */
const COMMANDS: Record<string, string[]> = {
  'replay scenarios': ['replay', 'scenarios/', '--preset', 'reference'],
  'replay recordings': ['replay', MINI, ...PRICES, '--per-run'],
  'replay --wide': ['replay', 'scenarios/', '--model', 'gpt-4o', '--context', 'window:10', '--per-run'],
  whatif: ['whatif', MINI, ...PRICES, '--try', 'max-steps=50', '--try', 'max-repeat=3,repeat-mode=total', '--try', 'max-repeat=3,repeat-mode=consecutive', '--try', 'max-cost=0.05'],
  'whatif scenarios': ['whatif', 'scenarios/', '--try', 'max-steps=5', '--try', 'max-repeat=2'],
  compare: ['compare', MINI, ...PRICES],
  curve: ['curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '100'],
  'curve --compare-context': ['curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '40', '--cache', 'on', '--compare-context', 'window:5;mask:10;summary:trigger=40000,keep=5,tokens=2000'],
  sweep: ['sweep', MINI, ...PRICES, '--grid', 'max-steps=50,100,200', '--grid', 'max-repeat=3,5', '--target-completion', '0.5'],
  'sweep scenarios': ['sweep', 'scenarios/production-mix.yaml', '--runs', '100', '--grid', 'max-steps=5,10,20,40', '--grid', 'max-repeat=2,3'],
  calibrate: ['calibrate', 'scenarios/', '--runs', '100', '--grid', 'max-repeat=2,3', '--grid', 'repeat-mode=total,consecutive'],
  'calibrate three keys': ['calibrate', 'scenarios/', '--runs', '100', '--grid', 'max-repeat=2,3', '--grid', 'repeat-mode=total,consecutive', '--grid', 'max-same-error=2,3'],
  'calibrate recordings': ['calibrate', 'scenarios/production-mix.yaml', MINI, ...PRICES, '--grid', 'max-repeat=2,3,4,5', '--grid', 'repeat-mode=total,consecutive,cycle'],
  project: ['project', 'scenarios/production-mix.yaml', '--preset', 'reference', '--runs-per-day', '2000', '--days', '30', '--seed', '7', '--suggest-cap', '0.02'],
  check: ['check', 'scenarios/'],
  contexts: ['contexts', MINI, ...PRICES, '--compare-context', 'full;window:5;mask:10;summary:trigger=40000,keep=5,tokens=2000;hybrid:mask=10,trigger=40000,keep=5,tokens=2000'],
  'fit --report': ['fit', MINI, '--prices', 'test/fixtures/prices/deepseek-recorded.json', '--out', join(tempDir(), 'profile.yaml'), '--report'],
  'prices <model>': ['prices', 'gpt-4o'],
};

type Ran = { code: number; stdout: string; stderr: string };

/** Each command line at each width run once: the tests that read the same report share it. */
const reports = new Map<string, Promise<Ran>>();
function run(argv: string[], columns?: number): Promise<Ran> {
  const key = [columns ?? 'piped', ...argv].join('\0');
  if (!reports.has(key)) reports.set(key, runNow(argv, columns));
  return reports.get(key)!;
}

async function runNow(argv: string[], columns?: number): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd: process.cwd(), ...(columns === undefined ? {} : { columns }) });
  return { code, stdout, stderr };
}

/** The lines wider than `width`, each with its width (none: the report fits). */
function tooWide(text: string, width: number): string[] {
  return text.split('\n').filter((line) => displayWidth(line) > width).map((line) => `${displayWidth(line)}: ${line}`);
}

describe('every text report fits 120 columns piped', () => {
  for (const [name, argv] of Object.entries(COMMANDS)) {
    it(name, async () => {
      const r = await run(argv);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\n').length).toBeGreaterThan(3);
      expect(tooWide(r.stdout, 120)).toEqual([]);
    }, 60_000);
  }
});

describe('calibrate and check fit a narrower terminal too', () => {
  for (const [name, columns] of [['calibrate', 80], ['calibrate three keys', 100], ['check', 100]] as const) {
    it(`${name} at ${columns} columns`, async () => {
      const r = await run(COMMANDS[name]!, columns);
      expect(r.code, r.stderr).toBe(0);
      expect(tooWide(r.stdout, columns)).toEqual([]);
    }, 60_000);
  }
});

describe('nothing is lost to fit', () => {
  it("calibrate (README's example): how many false stops a loop detector made is a column of its own; the false stops a table of their own under the catches, each row keyed again", async () => {
    const r = await run(COMMANDS.calibrate!);
    const lines = r.stdout.split('\n');
    const at = lines.indexOf('false stops, per configuration:');
    expect(at).toBe(7);
    expect(lines[0]).toMatch(/^max-repeat\s+repeat-mode\s+precision\s+recall\s+wasted steps$/);
    expect(lines[at + 1]).toMatch(/^max-repeat\s+repeat-mode\s+false stops \(synthetic\)\s+detector\s+false stops \(recorded\)\s+detector$/);
    const json = JSON.parse((await run([...COMMANDS.calibrate!, '--format', 'json'])).stdout);
    const first = json.configurations[0].synthetic;
    const detector = first.falseStopsByStop.filter((e: { stopReason: string }) => ['repeat', 'error_limit'].includes(e.stopReason)).reduce((sum: number, e: { runs: number }) => sum + e.runs, 0);
    expect(detector).toBeGreaterThan(0);
    expect(first.falseStops - detector).toBeGreaterThan(0);
    expect(lines[at + 3]).toMatch(new RegExp(`^2\\s+total\\s+${first.falseStops}/${first.tasksDoneWithoutBrakes} \\d+\\.\\d%\\s+${detector}\\s+0/3 0\\.0%\\s+0$`));
  }, 60_000);

  it('calibrate with one grid key: one table, each false-stop column followed by its detector count', async () => {
    const r = await run(['calibrate', 'scenarios/production-mix.yaml', '--grid', 'max-repeat=2,3,5']);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^\s+false stops\s+false stops$/);
    expect(lines[1]).toMatch(/^max-repeat\s+precision\s+recall\s+wasted steps\s+\(synthetic\)\s+detector\s+\(recorded\)\s+detector$/);
    expect(lines[3]).toMatch(/^2\s+14\/20 \(48–86%\)\s+14\/16 \(63–97%\)\s+4\.2 \(max 9\)\s+33\/151 21\.9%\s+6\s+-\s+-$/);
    expect(r.stdout).not.toContain('false stops, per configuration:');
  }, 60_000);

  it('check: a result within sampling noise is marked `*`, the mark said under the table', async () => {
    const r = await run(COMMANDS.check!);
    expect(r.stdout).toMatch(/^ {2}population\.completionRate\s+70%\s+≥ 65%\s+pass\*$/m);
    expect(r.stdout).toContain('* within sampling noise: its figure’s 95% interval holds the bound (each said below)');
    expect(r.stdout).toMatch(/^flight search: population\.completionRate measured 70%, limit ≥ 65% \(within sampling noise: 95% /m);
  }, 60_000);

  it('check at 100 columns: a stop-count list too long for its column continues under it, cut nowhere', async () => {
    const r = await run(COMMANDS.check!, 100);
    expect(tooWide(r.stdout, 100)).toEqual([]);
    const lines = r.stdout.split('\n');
    const at = lines.findIndex((line) => /^ {2}runs\.stopReason\s+completed ×21,/.test(line));
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toMatch(/^\s+max_steps ×9\s+max_steps\s*$/);
  }, 60_000);
});
