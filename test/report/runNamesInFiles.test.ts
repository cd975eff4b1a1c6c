/**
 * Run names in tables: the shared folder and extension are said once, above the table, also when a run
 * within a file (`#main.1`, `#3`) follows the file name: the extension is cut before it.
 */
import { describe, expect, it } from 'vitest';
import { shortenPaths } from '../../src/report/text.js';
import { sourcesLine } from '../../src/report/view.js';
import { cli } from '../cli/run.js';

const SHARED = '../shared/agent-logs/claude-code';

describe('run names with a #run after the file name', () => {
  it('drop the shared extension before the #run, and the line above the table says where it went', () => {
    const shortened = shortenPaths(['d/x.jsonl.gz#main.1', 'd/x.jsonl.gz#agent-a1', 'd/y.jsonl.gz#main.1']);
    expect(shortened).toEqual({ prefix: 'd/', suffix: '.jsonl.gz', short: ['x#main.1', 'x#agent-a1', 'y#main.1'], runs: 'all' });
    expect(sourcesLine(3, shortened.prefix, shortened.suffix, shortened.runs)).toBe('3 runs: d/<file>.jsonl.gz#<run>\n');
    const some = shortenPaths(['s/a.yaml#1', 's/a.yaml#2', 's/b.yaml']);
    expect(some).toEqual({ prefix: 's/', suffix: '.yaml', short: ['a#1', 'a#2', 'b'], runs: 'some' });
    expect(sourcesLine(3, some.prefix, some.suffix, some.runs)).toBe('3 runs: s/<file>.yaml[#<run>]\n');
    // Without a #run, as before.
    expect(shortenPaths(['d/x.traj.json', 'd/y.traj.json'])).toEqual({ prefix: 'd/', suffix: '.traj.json', short: ['x', 'y'] });
    expect(sourcesLine(2, 'd/', '.traj.json')).toBe('2 runs: d/<run>.traj.json\n');
    // A `#` that starts a file's name is part of it; one in a folder's name is no run.
    expect(shortenPaths(['d/#x.jsonl', 'd/#y.jsonl']).short).toEqual(['#x', '#y']);
    expect(shortenPaths(['a#b/x.jsonl', 'a#b/y.jsonl']).short).toEqual(['x', 'y']);
  });

  it('replay and whatif of the shared Claude Code sessions name runs 258c7280-…#main.1', async () => {
    for (const argv of [['replay', SHARED, '--max-cost', '2'], ['whatif', SHARED, '--try', 'max-cost=2', '--per-run']]) {
      const { code, stdout, stderr } = await cli(...argv);
      expect(code, stderr).toBe(0);
      expect(stdout).toContain('8 runs: ../shared/agent-logs/claude-code/<file>.jsonl.gz#<run>\n');
      expect(stdout).not.toMatch(/\.jsonl\.gz#(?!<run>)/);
      expect(stdout).toMatch(/^258c7280-ae70-\S*#main\.1 /m);
    }
  });
});
