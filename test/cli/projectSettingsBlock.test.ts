/**
 * `project` says its settings once, in the trailing `settings:` block every report ends with. Before, a
 * `Settings: each scenario file's runs take its own brakes…` paragraph came among the prose, above a second,
 * lower-case `settings: brakes …` block: two settings blocks of different case and content. What the
 * paragraph said that the block lacked (each file's own settings, the flags on top; recorded runs beside
 * them under the flags alone) is now a line of the block.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const MIX = 'scenarios/production-mix.yaml';
const LONG = 'scenarios/long-exploration.jsonl';
const RULE = "synthetic runs: each scenario file's runs take its own brakes, context and cache, with the flags given on top";
const BESIDE = 'the recorded runs beside them take the flags alone (as sweep, replay and calibrate run them)';

/** The report's lines from its `settings:` line on (the trailing block), and those before it. */
async function project(...argv: string[]): Promise<{ prose: string; block: string }> {
  const r = await cli('project', ...argv);
  expect(r.code, r.stderr).toBe(0);
  const lines = r.stdout.split('\n');
  const at = lines.findIndex((line) => line.startsWith('settings: '));
  expect(at).toBeGreaterThan(0);
  return { prose: lines.slice(0, at).join('\n'), block: lines.slice(at).join('\n').replace(/\n +/g, ' ') };
}

describe('project: one settings block', () => {
  it("the brief's command: no Settings paragraph; the block says each file's own settings, the flags on top", async () => {
    const { prose, block } = await project(MIX, '--preset', 'reference', '--runs-per-day', '2000', '--days', '30', '--seed', '7', '--suggest-cap', '0.02');
    expect(prose).not.toMatch(/settings/i);
    expect(block.split('\n').filter((line) => /^settings: /i.test(line))).toHaveLength(1);
    const lines = block.split('\n');
    expect(lines.map((line) => line.slice(0, line.indexOf(': ') + 1))).toEqual(['settings:', 'synthetic:', 'synthetic runs:', 'prices:', '']);
    expect(lines[2]).toBe(RULE);
  });

  it('with recorded runs beside the scenario file, the block says they take the flags alone', async () => {
    const { prose, block } = await project(MIX, LONG, '--runs', '20', '--trials', '20');
    expect(prose).not.toMatch(/take the flags alone|Settings:/);
    expect(block).toContain(`${RULE}; ${BESIDE}\n`);
  });

  it('without scenario files there is no rule to say, and JSON keeps no Settings note', async () => {
    const { block } = await project(LONG, '--trials', '20');
    expect(block).not.toContain('synthetic runs:');
    const r = await cli('project', MIX, LONG, '--runs', '20', '--trials', '20', '--format', 'json');
    expect(JSON.parse(r.stdout).notes.join(' ')).not.toMatch(/Settings:/);
  });
});
