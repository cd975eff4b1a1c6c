/**
 * A summary whose call no provider would answer (trigger + summary tokens past the window) is refused by
 * whatif as replay refuses it (exit 2, naming --context), on the compiled engine whatif runs on: before,
 * whatif ran every run with it (exit 0) while replay refused it.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const RUN = '../shared/traces/mini-swe-agent/deepseek_chat_dev/marshmallow-code__marshmallow-1343.traj.json.gz';
const PAST = 'summary:trigger=99%,keep=5,tokens=20000';

describe('whatif refuses a summary no provider would answer, as replay does', () => {
  it('trigger 99% + 20,000 summary tokens: exit 2 naming --context, in whatif as in replay', async () => {
    for (const argv of [['replay', RUN], ['whatif', RUN, '--try', 'max-steps=5']]) {
      const r = await cli(...argv, '--context', PAST);
      expect(r.code, `${argv[0]}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain("field '--context'");
      expect(r.stderr).toContain('every summary call would be refused (provider_refused)');
    }
  });

  it('a summary that fits runs', async () => {
    const r = await cli('whatif', RUN, '--try', 'max-steps=5', '--context', 'summary:trigger=50%,keep=5,tokens=2000', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).totals.length).toBe(1);
  });
});
