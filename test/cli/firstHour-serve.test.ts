/**
 * `loopcost serve` says what it spent when it stops in the reports' money format (at least three
 * significant digits), not four fixed decimals: $0.00035377 is `$0.000354`, never `$0.0004`.
 */
import { describe, expect, it } from 'vitest';
import { spawnServe } from '../serve/spawnServe.js';
import { stoppedMessage } from '../../src/cli/actions/serve.js';
import { formatUsd } from '../../src/report/money.js';

const TRACE = 'scenarios/reference-sum-of-squares.jsonl';

describe('loopcost serve: the spend it reports on stopping', () => {
  it('is in the report format: three significant digits of a small amount, $0 for nothing', () => {
    expect(stoppedMessage('SIGINT', { sessions: 1, calls: 1, costPico: '353770000' })).toBe('loopcost serve: stopped on SIGINT: 1 session, 1 call, $0.000354 spent\n');
    expect(stoppedMessage('SIGTERM', { sessions: 2, calls: 7, costPico: '12345678900000' })).toBe('loopcost serve: stopped on SIGTERM: 2 sessions, 7 calls, $12.3457 spent\n');
    expect(stoppedMessage('SIGINT', { sessions: 0, calls: 0, costPico: '0' })).toBe('loopcost serve: stopped on SIGINT: 0 sessions, 0 calls, $0 spent\n');
  });

  it('a served call, stopped with SIGINT: the spent amount is the sessions total, formatted as reports do', async () => {
    const { child, url, stderr, exited } = await spawnServe([TRACE]);
    const answer = await fetch(`${url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'sum' }] }) });
    expect(answer.status).toBe(200);
    const { totals } = (await (await fetch(`${url}/loopcost/sessions`)).json()) as { totals: { costPico: string } };
    const costPico = BigInt(totals.costPico);
    expect(costPico > 0n).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    const spent = /1 session, 1 call, (\S+) spent/.exec(stderr())?.[1];
    expect(spent).toBe(formatUsd(costPico));
    // At least three significant digits: a cost under a cent is never rounded to four decimals.
    expect(spent!.replace(/^\$0\.0*/, '')).toMatch(/^\d{3,}$/);
  });
});
