/**
 * `serve SCENARIO --check` says which tools each population entry's agent calls (an agent served the
 * scenario sees those names, and its own brakes count them), one line per entry, its `tool` applied.
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';

describe('serve --check lists the tools of a scenario’s behaviours', () => {
  it('production-mix: one tools line per entry, named entries by name; a lead’s steps are `work`', async () => {
    const { code, stdout, stderr } = await cli('serve', 'scenarios/production-mix.yaml', '--check');
    expect(code, stderr).toBe(0);
    const tools = stdout.split('\n').filter((line) => line.startsWith('tools: '));
    expect(tools).toEqual([
      'tools: healthy (completes): run',
      'tools: healthy (provider error): run',
      'tools: perfectionist: web_search, judge_sources',
      'tools: repeater: work, act',
      'tools: retrier: work, lookup',
      'tools: forgetful: read_log, write_section',
      'tools: asker: work, send_message',
      'tools: backtracker: search',
      'tools: sloppy: run',
    ]);
  });

  it("an entry's `tool` names its own tool", async () => {
    const { code, stdout, stderr } = await cli('serve', 'scenarios/springfield-weather.yaml', '--check');
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('\ntools: retrier (springfield): get_weather\n');
  });

  it('recordings: no tools line (a recording calls what it recorded)', async () => {
    const { code, stdout, stderr } = await cli('serve', '../shared/traces/cassettes/models__test_deepseek__test_deepseek_deferred_capability_with_thinking.yaml', '--check');
    expect(code, stderr).toBe(0);
    expect(stdout).not.toContain('tools: ');
  });
});
