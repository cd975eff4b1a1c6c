/**
 * `fit --report` with the profile on stdout (no `--out`, or `--out -`): the report goes to stderr, so that
 * `fit … --report > profile.yaml` is a profile that loads. Before, both went to stdout and the file then
 * failed to load ("not valid YAML"). With `--out FILE` the report stays on stdout.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { cli, tempDir } from './run.js';

const RUNS = 'test/fixtures/mini-swe-agent';

describe('fit --report with the profile on stdout', () => {
  it.each([[[]], [['--out', '-']]])('%j: stdout is the profile alone, the report is on stderr', async (out) => {
    const r = await cli('fit', RUNS, ...out, '--report', '--runs', '50');
    expect(r.code, r.stderr).toBe(0);
    expect(() => parseScenario(r.stdout, 'profile.yaml')).not.toThrow();
    expect(r.stdout).not.toMatch(/completion: recorded/);
    expect(r.stderr).toMatch(/completion: recorded \d+\.\d%, synthetic/);
  });

  it('--format json: the JSON report on stderr parses', async () => {
    const r = await cli('fit', RUNS, '--report', '--runs', '50', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(() => parseScenario(r.stdout, 'profile.yaml')).not.toThrow();
    expect(JSON.parse(r.stderr).rows).toHaveLength(15);
  });

  it('with --out FILE the report is on stdout', async () => {
    const r = await cli('fit', RUNS, '--out', join(tempDir(), 'p.yaml'), '--report', '--runs', '50');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/completion: recorded/);
  });
});
