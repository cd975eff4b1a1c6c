/**
 * Another sample judged paired with the baseline's agents (src/check/pairedAgents.ts): a baseline stores what
 * re-runs its synthetic agents, and a check whose runs are another sample (another seed, run count, entries in
 * another order) runs them again on its own draws and judges each figure against theirs by the tolerance alone.
 * A regression made together with a re-seed moved figures less than the noise band of 300 runs and passed; it
 * fails now, while a re-seed alone (the same agents on other draws) moves nothing. A baseline without agents
 * (written before) keeps the band, and says so once; one whose agents this loopcost cannot run too.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { GATE_SUPPORT, withoutAgents } from './gateFixture.js';
import { agentsHash } from '../../src/check/pairedAgents.js';

interface Row {
  figure: string;
  status: string;
  baseline?: number | null;
  measured?: number | null;
  paired?: number | null;
  relativeChange?: number | null;
  relativeChangeFrom?: string;
  relativeChangeFromStored?: number | null;
}

/** The support agent at 300 runs, its perfectionist at weight 10, no expectations (the drift alone gates). */
function support(dir: string): string {
  const text = readFileSync(GATE_SUPPORT, 'utf8')
    .replace(/^runs: 500$/m, 'runs: 300')
    .replace('tool: kb_search\n    weight: 5', 'tool: kb_search\n    weight: 10')
    .replace(/^expect:\n(?: {2}.*\n)+/m, '');
  expect(text).toContain('weight: 10');
  expect(text).not.toContain('expect:');
  const file = join(dir, 'support.yaml');
  writeFileSync(file, text);
  return file;
}

/** The baselines written, by the scenario text they were written from (beside it, so the same bytes each time). */
const written = new Map<string, string>();

/** A baseline of `file` as it is, beside it (written once per scenario text, then copied). */
async function baselineOf(file: string): Promise<string> {
  const baseline = join(dirname(file), 'baseline.json');
  const text = readFileSync(file, 'utf8');
  const known = written.get(text);
  if (known !== undefined) {
    writeFileSync(baseline, known);
    return baseline;
  }
  const wrote = await cli('check', file, '--update-baseline', baseline);
  expect(wrote.code, wrote.stderr).toBe(0);
  written.set(text, readFileSync(baseline, 'utf8'));
  return baseline;
}

async function checkJson(file: string, baseline: string, ...flags: string[]): Promise<{ code: number; rows: Row[]; drift: Record<string, unknown> }> {
  const r = await cli('check', file, '--baseline', baseline, '--format', 'json', ...flags);
  expect(r.stderr).not.toMatch(/Error|at .*\.ts:/);
  const report = JSON.parse(r.stdout);
  return { code: r.code, rows: report.drift.rows, drift: report.drift };
}

const statusOf = (rows: readonly Row[], figure: string) => rows.find((row) => row.figure === figure)!.status;

interface Regression {
  file: string;
  baseline: string;
  json: Awaited<ReturnType<typeof checkJson>>;
  junit: string;
  text: Awaited<ReturnType<typeof cli>>;
}

let regressed: Promise<Regression> | undefined;

/**
 * The perfectionist raised 10 → 15 and checked at seed 4 against the baseline of weight 10 (its agents stored):
 * the JSON report (with --junit) and the text report, made once for the tests that read them.
 */
function regression(): Promise<Regression> {
  regressed ??= (async () => {
    const file = support(tempDir());
    const baseline = await baselineOf(file);
    writeFileSync(file, readFileSync(file, 'utf8').replace('tool: kb_search\n    weight: 10', 'tool: kb_search\n    weight: 15'));
    const junit = join(tempDir(), 'r.xml');
    const json = await checkJson(file, baseline, '--seed', '4', '--junit', junit);
    const text = await cli('check', file, '--baseline', baseline, '--seed', '4');
    return { file, baseline, json, junit: readFileSync(junit, 'utf8'), text };
  })();
  return regressed;
}

/** A copy of the regression's baseline beside it, holding no agents (as every baseline was written before they were stored). */
function withoutAgentsCopy(baseline: string, name: string): string {
  const copy = join(dirname(baseline), name);
  copyFileSync(baseline, copy);
  withoutAgents(copy);
  return copy;
}

describe('a regression made together with a re-seed', () => {
  it('perfectionist weight 10 → 15 with another seed fails, judged against the baseline agents on the same draws; a baseline without agents passes it within noise', async () => {
    const { file, baseline: withAgents, json, text } = await regression();
    expect(json.code).toBe(1);
    expect(json.drift.paired).toEqual([file]);
    const mean = json.rows.find((row) => row.figure === 'costPerRunUsd.mean')!;
    expect(mean.status).toBe('drift');
    expect(mean.relativeChange).toBeGreaterThan(0.05);
    expect(text.stdout).toMatch(/costPerRunUsd\.p95 +\$0\.0101 +\$0\.00786 +\$0\.00883 +DRIFT ↑ \+12\.3%/);
    // A paired status is long: it continues under its cell rather than run past 120 columns.
    expect(Math.max(...text.stdout.split('\n').map((line) => [...line].length))).toBeLessThanOrEqual(120);
    expect(text.stdout.replace(/\s+/g, ' ')).toContain(`paired: ${file}: its synthetic runs are another sample than the baseline's; the baseline's agents (stored in it) were run again on these runs' draws`);
    // Before (a baseline holding no agents, as every baseline did): each figure within the noise band of 300 runs, exit 0.
    const baseline = withoutAgentsCopy(withAgents, 'without-agents-text.json');
    const unpaired = await cli('check', file, '--baseline', baseline, '--seed', '4');
    expect(unpaired.code).toBe(0);
    expect(unpaired.stdout).toMatch(/costPerRunUsd\.p95 .*within noise/);
    const said = unpaired.stdout.replace(/\s+/g, ' ');
    expect(said).toContain(`unpaired: ${file}: another sample than the baseline's, judged against the noise band, not paired with the baseline's agents: the baseline holds no agents to run again (written before baselines stored them); to judge it paired, write the baseline again with --update-baseline ${baseline}`);
    expect(said.split('unpaired:').length).toBe(2);
  });

  it('what a user reads is the change that decided: the p95 fell from the stored figure, rose from the baseline agents on these draws, and every output says the rise', async () => {
    const { file, baseline, json, junit, text: report } = await regression();
    const p95 = json.rows.find((row) => row.figure === 'costPerRunUsd.p95')!;
    // $0.0101 stored, $0.00883 measured, $0.00786 the baseline's agents here: a FAIL for a rise of 12.3%.
    expect(p95.status).toBe('drift');
    expect(p95.measured!).toBeLessThan(p95.baseline!);
    expect(p95.relativeChangeFrom).toBe('paired');
    expect(p95.relativeChange).toBeCloseTo((p95.measured! - p95.paired!) / p95.paired!, 12);
    expect(p95.relativeChange).toBeGreaterThan(0.12);
    // The stored figure's change kept under its own name: the other sign.
    expect(p95.relativeChangeFromStored).toBeCloseTo((p95.measured! - p95.baseline!) / p95.baseline!, 12);
    expect(p95.relativeChangeFromStored).toBeLessThan(-0.12);
    expect(junit).toContain("message=\"drift ↑ +12.3% from the baseline&apos;s agents on these draws: costPerRunUsd.p95: baseline $0.0101, measured $0.00883, the baseline&apos;s agents on these draws $0.00786");
    const text = report.stdout;
    expect(text).toMatch(/costPerRunUsd\.p95 +\$0\.0101 +\$0\.00786 +\$0\.00883 +DRIFT ↑ \+12\.3%/);
    expect(text).not.toMatch(/-12\.\d%/);
    expect(text.replace(/\s+/g, ' ')).toContain("a change shown (its arrow and sign) is from that column, not from the stored figure in the baseline column (which it may even move the other way from)");
    // Unpaired (no agents): the change is from the stored figure, and says so.
    const unpaired = await checkJson(file, withoutAgentsCopy(baseline, 'without-agents-json.json'), '--seed', '4');
    const row = unpaired.rows.find((r) => r.figure === 'costPerRunUsd.p95')!;
    expect(row.relativeChangeFrom).toBe('baseline');
    expect(row.relativeChange).toBeCloseTo(p95.relativeChangeFromStored!, 12);
    expect(row.relativeChangeFromStored).toBeUndefined();
  });

  // 4 seeds (were 10): each is another 300 draws of the same agents, and each figure must equal theirs exactly.
  it('a re-seed alone passes: 4 seeds, 0 fail, every figure equal to the baseline agents on its draws', async () => {
    const file = support(tempDir());
    const baseline = await baselineOf(file);
    let failed = 0;
    for (let seed = 100; seed < 104; seed++) {
      const json = await checkJson(file, baseline, '--seed', String(seed));
      if (json.code !== 0) failed++;
      expect(json.drift.paired).toEqual([file]);
      const paired = json.rows.filter((row) => row.paired !== undefined);
      expect(paired.map((row) => row.figure)).toHaveLength(9);
      expect(paired.every((row) => row.relativeChange === 0 && row.relativeChangeFrom === 'paired' && row.status === 'ok')).toBe(true);
    }
    expect(failed).toBe(0);
  }, 120_000);

  it('more runs and entries in another order are the same agents on other draws: nothing moves, totals and the largest run compared', async () => {
    const file = support(tempDir());
    const baseline = await baselineOf(file);
    const text = readFileSync(file, 'utf8');
    const [a, b, c] = ['  - behaviour: perfectionist', '  - behaviour: retrier', '  - behaviour: asker'].map((mark) => text.indexOf(mark));
    writeFileSync(file, (text.slice(0, a) + text.slice(b!, c) + text.slice(a, b) + text.slice(c)).replace(/^runs: 300$/m, 'runs: 900'));
    const json = await checkJson(file, baseline);
    expect(json.code).toBe(0);
    expect(json.drift.paired).toEqual([file]);
    expect(statusOf(json.rows, 'costUsd')).toBe('ok');
    expect(statusOf(json.rows, 'costPerRunUsd.max')).toBe('ok');
    const paired = json.rows.filter((row) => row.paired !== undefined);
    expect(paired).toHaveLength(9);
    expect(paired.every((row) => row.relativeChange === 0)).toBe(true);
  });
});

describe('a baseline whose agents this loopcost cannot run', () => {
  it('is still read: judged against the noise band, the reason said (a setting another loopcost stored, a scenario field it added)', async () => {
    const file = support(tempDir());
    const baseline = await baselineOf(file);
    const stored = JSON.parse(readFileSync(baseline, 'utf8'));
    // As another loopcost would write them: its own setting, hashed with the rest.
    stored.scenarios[0].agents.settings.warpDrive = 'on';
    stored.scenarios[0].agents.hash = agentsHash(stored.scenarios[0].agents);
    writeFileSync(baseline, JSON.stringify(stored, null, 2));
    const json = await checkJson(file, baseline, '--seed', '4');
    // Read, and judged as before: the largest run of another sample not held, no row paired.
    expect(statusOf(json.rows, 'costPerRunUsd.max')).toBe('not held');
    expect(json.rows.some((row) => row.paired !== undefined)).toBe(false);
    expect(json.drift.unpaired).toEqual([{ scenario: file, reason: "the baseline's agents cannot be run again: its settings name warpDrive, which this loopcost does not run" }]);
    delete stored.scenarios[0].agents.settings.warpDrive;
    stored.scenarios[0].agents.scenario.moodSwings = 0.3;
    stored.scenarios[0].agents.hash = agentsHash(stored.scenarios[0].agents);
    writeFileSync(baseline, JSON.stringify(stored, null, 2));
    const later = await checkJson(file, baseline, '--seed', '4');
    expect(later.code).not.toBe(2);
    const reason = (later.drift.unpaired as { reason: string }[])[0]!.reason;
    expect(reason).toMatch(/^the baseline.s agents cannot be run again: they do not read as a scenario here \(/);
    expect(reason).toContain('moodSwings');
  });

  it('agents that do not give the baseline its own figures (another loopcost draws them otherwise) are not trusted', async () => {
    const file = support(tempDir());
    const baseline = await baselineOf(file);
    const stored = JSON.parse(readFileSync(baseline, 'utf8'));
    // As another loopcost would write them (hashed as they are), drawn otherwise than here.
    stored.scenarios[0].agents.scenario.systemTokens = 1300;
    stored.scenarios[0].agents.hash = agentsHash(stored.scenarios[0].agents);
    writeFileSync(baseline, JSON.stringify(stored, null, 2));
    const json = await checkJson(file, baseline, '--seed', '4');
    expect((json.drift.unpaired as { reason: string }[])[0]!.reason).toContain('do not give its figures');
  });

  it("agents edited where the baseline's draws never went (an entry none of its runs picked) pass the re-run at its seed, and are refused by their hash", async () => {
    const file = support(tempDir());
    // A rare entry (1 in 10,000 runs): none of the baseline's 300 draws picks it, so its figures do not depend on it.
    writeFileSync(file, readFileSync(file, 'utf8') + '  - behaviour: healthy\n    name: rare\n    weight: 0.01\n    steps: 5\n    outputTokens: 150\n    toolResultTokens: 400\n');
    const baseline = await baselineOf(file);
    expect((await checkJson(file, baseline, '--seed', '4')).drift.paired).toEqual([file]);
    const stored = JSON.parse(readFileSync(baseline, 'utf8'));
    const rare = stored.scenarios[0].agents.scenario.population.find((entry: { name?: string }) => entry.name === 'rare');
    rare.outputTokens = 20000;
    writeFileSync(baseline, JSON.stringify(stored, null, 2));
    // The edited agents still give the baseline's figures at its seed and run count: the figures alone would trust them.
    const json = await checkJson(file, baseline, '--seed', '4');
    expect(json.drift.paired).toBeUndefined();
    expect(json.drift.unpaired).toEqual([{ scenario: file, reason: "the baseline's agents were edited since it was written (their hash does not match them)" }]);
    // Without the hash (a baseline written before it, or the hash deleted with the edit), an edit cannot be told:
    // not paired either, judged within the noise bands, and said how to pair again.
    delete stored.scenarios[0].agents.hash;
    writeFileSync(baseline, JSON.stringify(stored, null, 2));
    const unhashed = await checkJson(file, baseline, '--seed', '4');
    expect(unhashed.drift.paired ?? []).toEqual([]);
    expect(unhashed.drift.unpaired).toEqual([{ scenario: file, reason: expect.stringContaining("the baseline's agents carry no hash (written before baselines stored one): write it again with --update-baseline to pair") }]);
  });
});
