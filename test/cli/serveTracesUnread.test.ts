/**
 * `serve` with a scenario file that has a population AND `traces:` answers from the population alone (only
 * check reads `traces:`), and said nothing of the entries it left unread. It now says so on stderr as it
 * starts (scenarioWarnings.ts unreadTracesWarnings, as replay and generate say it), --check or listening.
 */
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from './run.js';
import { spawnServe } from '../serve/spawnServe.js';

// serve answers from a scenario or from traces, not both: those traces would need a server of their own.
const UNREAD = (file: string) => `warning: ${file}: its traces: entries are read by loopcost check only; to answer from those traces, start a server of their own (loopcost serve TRACES)`;

/** The `warning:` lines of a text, each joined with its indented continuation lines. */
function warnings(text: string): string[] {
  return text.replace(/\n {2,}/g, ' ').split('\n').filter((line) => line.startsWith('warning: '));
}

describe("serve: a scenario file's unread traces: entries", () => {
  const dir = tempDir();
  const both = oneEntryScenario(dir, 'both.yaml', { runs: '2', traces: '[nosuch/*.jsonl]' });
  const plain = oneEntryScenario(dir, 'plain.yaml', { runs: '2' });

  it('serve --check says it once on stderr, and nothing for a file without traces:', async () => {
    const r = await cli('serve', both, '--check');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/would answer from synthetic runs of/);
    expect(warnings(r.stderr)).toEqual([UNREAD(both)]);
    const quiet = await cli('serve', plain, '--check');
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(warnings(quiet.stderr)).toEqual([]);
  });

  it('a listening serve says it as it starts', async () => {
    const { child, stderr, exited } = await spawnServe([both]);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(warnings(stderr())).toEqual([UNREAD(both)]);
  });
});
