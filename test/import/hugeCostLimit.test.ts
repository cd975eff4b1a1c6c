// A harness's cost limit past the most one run can spend exactly ($9,007; `cost_limit: 1e9` is how some
// runs say "no limit") is read as no limit: the header would otherwise state a budget the trace rules
// refuse (as --max-cost refuses it), and the whole trajectory would be refused on import.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importText } from '../../src/import/importText.js';

const FIXTURE = 'test/fixtures/mini-swe-agent/deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json';

function withCostLimit(limit: number): string {
  const trajectory = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { info: { config: { agent: { cost_limit: number } } } };
  trajectory.info.config.agent.cost_limit = limit;
  return JSON.stringify(trajectory);
}

describe('mini-swe-agent cost_limit', () => {
  it('a limit a run can reach is the recorded budget; one past $9,007 is none, and the run still reads', () => {
    const [kept] = importText(withCostLimit(3), 'run.traj.json');
    expect(kept!.header.recordedSettings?.maxCostUsd).toBe(3);
    const [huge] = importText(withCostLimit(1e9), 'run.traj.json');
    expect(huge!.header.recordedSettings?.maxCostUsd).toBeUndefined();
    expect(huge!.calls.length).toBe(kept!.calls.length);
  });
});
