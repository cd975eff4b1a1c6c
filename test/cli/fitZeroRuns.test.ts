/**
 * `fit --report` on runs whose every call failed at the provider (five deepseek_reasoner runs of the
 * shared mini-swe-agent set: one failed call, $0) showed a p10 of $0 with no word of why. The report now
 * says how many recorded runs failed at their first call and where fit keeps them: in the profile's
 * 'unfinished: provider error' group (fit.ts PROVIDER_ERROR_GROUP), whose synthetic runs fail alike.
 * A run refused for its length at its very first call is kept in the 'unfinished: context window' group
 * (fitWindow.ts), and the line says so (it used to name the provider error group for every $0 run).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const FIXTURES = 'test/fixtures/mini-swe-agent';
/** One failed call, $0 (as the five shared ones) … */
const FAILED = `${FIXTURES}/deepseek_reasoner_dev__pvlib__pvlib-python-1154.traj.json`;
/** … and two runs that were answered. */
const ANSWERED = [`${FIXTURES}/deepseek_reasoner_dev__pvlib__pvlib-python-1606.traj.json`, `${FIXTURES}/deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json`];
const SHARED = '/work/shared/traces/mini-swe-agent';

/** The report's text with its wrapped lines joined back. */
const joined = (text: string) => text.replace(/\n {2,}/g, ' ');

describe('fit --report: the $0 runs said', () => {
  it('names the recorded runs that failed at their first call and the group fit keeps them in', async () => {
    const r = await cli('fit', FAILED, ...ANSWERED, '--report', '--runs', '200');
    expect(r.code, r.stderr).toBe(0);
    // With the profile on stdout (no --out), the report is on stderr.
    const line = joined(r.stderr).split('\n').find((l) => l.startsWith('$0 runs: '));
    expect(line).toMatch(
      /^\$0 runs: 1 of 3 recorded runs failed at their first call \(every call failed at the provider: nothing billed\); fit keeps them in the profile's 'unfinished: provider error' group, whose synthetic runs fail alike \(\d+ of 200\): they are the \$0 at the low cost quantiles$/,
    );
    const json = JSON.parse((await cli('fit', FAILED, ...ANSWERED, '--report', '--runs', '200', '--format', 'json')).stderr);
    expect(json.allCallsFailed.recorded).toBe(1);
    expect(json.allCallsFailed.synthetic).toBeGreaterThan(0);
  });

  it('says nothing when every recorded run was answered', async () => {
    const r = await cli('fit', ...ANSWERED, '--report', '--runs', '50');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/\$0 runs:/);
  });

  it.skipIf(!existsSync(SHARED))('the shared mini-swe-agent runs: the five $0 deepseek_reasoner runs explain the p10 of $0', async () => {
    const r = await cli('fit', SHARED, '--report', '--runs', '500');
    expect(r.code, r.stderr).toBe(0);
    const text = joined(r.stderr);
    expect(text).toMatch(/costPerRunUsd +p10 +\$0 /);
    expect(text).toMatch(/\$0 runs: 5 of 38 recorded runs failed at their first call/);
  });
});

/** gpt-4o runs, one JSONL file: three answered (two steps), then `failedFirst`, each a run of one call failed at the provider. */
function runsFile(failedFirst: readonly object[]): string {
  const header = (goalTokens: number) => JSON.stringify({ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o', systemTokens: 300, goalTokens });
  const answered = [
    header(40),
    JSON.stringify({ type: 'call', outputTokens: 50, toolCalls: [{ name: 'run', arguments: { a: 1 }, resultTokens: 60 }] }),
    JSON.stringify({ type: 'call', outputTokens: 20, final: true }),
    JSON.stringify({ type: 'end', outcome: 'completed' }),
  ];
  const failed = failedFirst.flatMap((failed) => [header(200_000), JSON.stringify({ type: 'call', outputTokens: 0, failed }), JSON.stringify({ type: 'end', outcome: 'error' })]);
  const file = join(tempDir(), 'runs.jsonl');
  writeFileSync(file, [...answered, ...answered, ...answered, ...failed].join('\n') + '\n');
  return file;
}

const REFUSED = { status: 400, message: 'context_length_exceeded', contextLengthExceeded: { promptTokens: 200_300, maxOutputTokens: 4096, contextWindowTokens: 128_000 } };
const OVERLOADED = { status: 529, message: 'overloaded' };

describe('fit --report: $0 runs refused for length at their first call', () => {
  const zeroLine = async (file: string) => {
    const r = await cli('fit', file, '--report', '--runs', '100');
    expect(r.code, r.stderr).toBe(0);
    return joined(r.stderr).split('\n').find((l) => l.startsWith('$0 runs: '));
  };

  it("names the 'unfinished: context window' group they are kept in (before: the provider error group)", async () => {
    expect(await zeroLine(runsFile([REFUSED]))).toMatch(
      /^\$0 runs: 1 of 4 recorded runs failed at their first call \(every call failed at the provider: nothing billed\); fit keeps them in the profile's 'unfinished: context window' group \(refused for length at their first call\), whose synthetic runs fail alike \(\d+ of 100\)/,
    );
  });

  it('names both groups, with their counts, when some failed otherwise', async () => {
    expect(await zeroLine(runsFile([REFUSED, OVERLOADED, OVERLOADED]))).toMatch(
      /^\$0 runs: 3 of 6 recorded runs failed at their first call \(every call failed at the provider: nothing billed\); fit keeps them in the profile's 'unfinished: provider error' group \(2\) and its 'unfinished: context window' group \(1, refused for length at their first call\), whose synthetic runs fail alike/,
    );
  });
});
