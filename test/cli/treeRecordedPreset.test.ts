/**
 * `replay --tree --preset recorded` is refused (exit 2) with why: --tree takes one set of brakes for every
 * session's totals and one per-agent limit for every sub-agent, while each recording states its own agent's
 * limits; and what to do instead (the limits as flags, or no --tree).
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const SESSION = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';

describe('replay --tree --preset recorded', () => {
  it('is refused, saying why and what to do', async () => {
    const r = await cli('replay', '--tree', SESSION, '--preset', 'recorded');
    expect(r.code).toBe(2);
    const said = r.stderr.replace(/\s+/g, ' ');
    expect(said).toContain("field '--preset recorded': is not available with --tree: --tree binds every session's totals with one set of brakes");
    expect(said).toContain("each recording states its own agent's limits");
    expect(said).toContain('--subagent-max-steps/--subagent-max-cost');
    expect(said).toContain('drop --tree to replay each agent under its own recorded limits');
    expect(r.stdout).toBe('');
  });

  it('scenario files are still refused first, and other flags as before', async () => {
    expect((await cli('replay', '--tree', 'scenarios/flight-search.yaml', '--preset', 'recorded')).stderr).toContain('scenario files have no session trees');
    expect((await cli('replay', '--tree', SESSION, '--per-step', '--format', 'json')).stderr).toContain("field '--per-step': is not available with --tree");
  });
});
