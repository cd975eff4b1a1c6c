/**
 * `serve --check` names what it would serve as every report names its settings: the model of each
 * recording (or the scenario's), the brakes (none: the agent under test runs its own), the context and
 * cache, and the price table by name, version and hash.
 */
import { describe, expect, it } from 'vitest';
import { loadPriceTable } from '../../src/pricing/index.js';
import { describePriceSource } from '../../src/pricing/source.js';
import { cli } from '../cli/run.js';

const source = loadPriceTable().source;
const CASSETTE = '../shared/traces/cassettes/models__test_deepseek__test_deepseek_deferred_capability_with_thinking.yaml';

describe('serve --check names the model, settings and price table', () => {
  it('a recording: its model, no brakes, its cache as recorded, the bundled table with its hash', async () => {
    const { code, stdout, stderr } = await cli('serve', CASSETTE, '--check');
    expect(code, stderr).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('loopcost serve --check: would answer from 1 recorded run on 127.0.0.1:8787');
    expect(lines[1]).toBe('model: deepseek-reasoner');
    expect(lines[2]).toBe('settings: brakes none (the agent under test runs its own) · context as the agent sends it · cache as recorded');
    expect(stdout.replace(/\n +/g, ' ')).toContain(`prices: ${describePriceSource(source)}\n`);
    expect(stdout).toContain(`${source.name} ${source.version} (sha256 ${source.hash})`);
  });

  it('recordings of several models: runs per model, as replay counts them', async () => {
    const { code, stdout, stderr } = await cli('serve', '../shared/agent-logs/claude-code', '--check', '--cache', 'off');
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('\nmodels: claude-haiku-4-5 1, claude-opus-4-6 5, claude-sonnet-4-5 2\n');
    expect(stdout).toContain('· cache off\n');
  });

  it("a scenario: its model and seed, its cache (--cache on top), the price table", async () => {
    const { code, stdout, stderr } = await cli('serve', 'scenarios/flight-search.yaml', '--check', '--seed', '3', '--cache', 'on', '--port', '0');
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('would answer from synthetic runs of scenarios/flight-search.yaml (seed 3) on 127.0.0.1:0\n');
    expect(stdout).toContain('\nmodel: gpt-4o-mini\n');
    expect(stdout).toContain('brakes none (the agent under test runs its own) · context as the agent sends it · cache on\n');
    expect(stdout).toContain(`prices: ${source.name} ${source.version} (sha256 ${source.hash})`);
  });
});
