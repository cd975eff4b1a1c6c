/**
 * Writing a baseline over an existing one (CI review): accepting on some of the scenarios keeps the others'
 * entries (a later brake regression there is then caught, not passed as a new scenario) and drops one whose
 * file is gone, saying both; `--update-baseline F` with F there and no `--baseline` compares with F as
 * `--baseline F --update-baseline F` does, listing what it replaces; and a baseline written under what-if
 * flags says so, in one line and in the JSON.
 */
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { GATE_SUPPORT } from './gateFixture.js';

const flat = (text: string) => text.replace(/\s+/g, ' ');
const sources = (baseline: string) => (JSON.parse(readFileSync(baseline, 'utf8')).scenarios as { source: string }[]).map((s) => s.source).sort();

/** Two scenario files (a.yaml, b.yaml: the support scenario, 60 runs each) in a directory, and a baseline of both. */
async function twoScenarios(): Promise<{ dir: string; a: string; b: string; baseline: string }> {
  const dir = tempDir();
  const [a, b] = [join(dir, 'a.yaml'), join(dir, 'b.yaml')];
  const text = readFileSync(GATE_SUPPORT, 'utf8');
  writeFileSync(a, text.replace('name: support agent', 'name: support a'));
  writeFileSync(b, text.replace('name: support agent', 'name: support b'));
  const baseline = join(dir, 'baseline.json');
  const wrote = await cli('check', dir, '--update-baseline', baseline);
  expect(wrote.code, wrote.stderr).toBe(0);
  return { dir, a, b, baseline };
}

describe('check --baseline F --update-baseline F on some of the scenarios', () => {
  it('keeps the entries of the scenarios not checked, unchanged, and says so; a later regression there still fails', async () => {
    const { dir, a, b, baseline } = await twoScenarios();
    const before = JSON.parse(readFileSync(baseline, 'utf8'));
    const accept = await cli('check', a, '--baseline', baseline, '--update-baseline', baseline);
    expect(accept.code, accept.stdout).toBe(0);
    expect(flat(accept.stdout)).toContain('kept 1 scenario not checked (its entry written back unchanged)');
    const after = JSON.parse(readFileSync(baseline, 'utf8'));
    expect(sources(baseline)).toEqual(['a.yaml', 'b.yaml']);
    expect(after.scenarios.find((s: { source: string }) => s.source === 'b.yaml')).toEqual(before.scenarios.find((s: { source: string }) => s.source === 'b.yaml'));
    writeFileSync(b, readFileSync(b, 'utf8').replace('max-steps: 15', 'max-steps: 40'));
    const later = await cli('check', dir, '--baseline', baseline);
    expect(later.code).toBe(1);
    expect(flat(later.stdout)).toMatch(/brakes loosened: \S*b\.yaml: max-steps 15 → 40/);
  });

  it('drops a scenario reported gone because its file was removed, and says so', async () => {
    const { dir, b, baseline } = await twoScenarios();
    rmSync(b);
    const accept = await cli('check', dir, '--baseline', baseline, '--update-baseline', baseline, '--format', 'json');
    expect(accept.code, accept.stdout).toBe(0);
    const report = JSON.parse(accept.stdout);
    expect(report.drift.hint).toMatch(/dropped 1 gone \(\S*b\.yaml: no such file\)/);
    expect([report.baselineWritten.kept, report.baselineWritten.dropped.length]).toEqual([[], 1]);
    expect(sources(baseline)).toEqual(['a.yaml']);
  });
});

describe('check --update-baseline F with F there and no --baseline', () => {
  it('compares with F and lists the changes it replaces, as --baseline F --update-baseline F does', async () => {
    const { dir, a, baseline } = await twoScenarios();
    writeFileSync(a, readFileSync(a, 'utf8').replace('max-steps: 15', 'max-steps: 40'));
    const write = await cli('check', dir, '--update-baseline', baseline);
    expect(write.code, write.stdout).toBe(0);
    const text = flat(write.stdout);
    expect(text).toMatch(/brakes loosened: \S*a\.yaml: max-steps 15 → 40/);
    expect(text).toContain('next: accepted (no --baseline given: compared with the baseline it replaces): the differences above are the baseline now');
    expect(JSON.parse(readFileSync(baseline, 'utf8')).scenarios[0].settings.brakes).toContain('max-steps=40');
  });

  it('an existing file that is no baseline is replaced, said in a warning', async () => {
    const { dir, baseline } = await twoScenarios();
    writeFileSync(baseline, '{"not": "a baseline"}\n');
    const write = await cli('check', dir, '--update-baseline', baseline, '--format', 'json');
    expect(write.code, write.stderr).toBe(0);
    const report = JSON.parse(write.stdout);
    expect(report.warnings.map((w: { code: string }) => w.code)).toContain('baseline_replaced');
    expect(report.baselineWritten.replaced).toBe('not compared');
    expect(sources(baseline)).toEqual(['a.yaml', 'b.yaml']);
  });
});

describe('a baseline written under what-if flags', () => {
  it('says which, on stderr and in the JSON', async () => {
    const dir = tempDir();
    const file = join(dir, 'support.yaml');
    copyFileSync(GATE_SUPPORT, file);
    const baseline = join(dir, 'baseline.json');
    const write = await cli('check', file, '--update-baseline', baseline, '--timeout', '500', '--format', 'json');
    expect(write.code, write.stderr).toBe(0);
    expect(write.stderr).toContain(`${baseline} written with command-line overrides: --timeout 500; CI must pass them too (or put them in the scenario files)`);
    expect(JSON.parse(write.stdout).baselineWritten.overrides).toEqual(['--timeout 500']);
    const plain = await cli('check', file, '--update-baseline', join(dir, 'plain.json'));
    expect(plain.stderr).not.toContain('command-line overrides');
  });
});
