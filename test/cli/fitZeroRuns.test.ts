/**
 * `fit --report` on runs whose every call failed at the provider (five deepseek_reasoner runs of the
 * shared mini-swe-agent set: one failed call, $0) showed a p10 of $0 with no word of why. The report now
 * says how many recorded runs failed at their first call and where fit keeps them: in the profile's
 * 'unfinished: provider error' group (fit.ts PROVIDER_ERROR_GROUP), whose synthetic runs fail alike.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

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
