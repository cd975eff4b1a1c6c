/**
 * A recorded cost past $9,007.199254740991 (2^53 − 1 picodollars, the most summed exactly) in a
 * mini-swe-agent or SWE-agent trajectory is refused at the trajectory's own field, as its token counts
 * are (and as the HTTP importer names `response.usage.cost`). Before, the limit was met only in the
 * converted run, whose fields (`calls[0].recordedCostUsd`, `end.recordedCostUsd`) the user's file does not have.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importText } from '../../src/import/importText.js';
import { userErrorOf } from '../helpers.js';

const MINI = 'test/fixtures/mini-swe-agent/deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json';
const SWE = 'test/fixtures/swe-agent/gpt4__swe-agent__test-repo-i1.traj';
const PAST = 'is more than $9,007.199254740991 (2^53 − 1 picodollars), the most that is summed exactly';

function trajectory(path: string, edit: (t: any) => void): string {
  const t = JSON.parse(readFileSync(path, 'utf8'));
  edit(t);
  return JSON.stringify(t);
}

/** The issues of the refused `text`, as [field, code, message], by field. */
const fieldsOf = (text: string, name: string) =>
  userErrorOf(() => importText(text, name))
    .issues.map((issue) => [issue.field, issue.code, issue.message])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));

describe('a recorded cost past $9,007', () => {
  it("mini-swe-agent: a message's extra.cost and the run's instance_cost, each at its own field", () => {
    const text = trajectory(MINI, (t) => {
      t.messages[2].extra.cost = 10000;
      t.info.model_stats.instance_cost = 10000.0016;
    });
    expect(fieldsOf(text, 'run.traj.json')).toEqual([
      ['info.model_stats.instance_cost', 'too_large', `$10000.0016 ${PAST}`],
      ['messages[2].extra.cost', 'too_large', `$10000 ${PAST}`],
    ]);
  });

  it("mini-swe-agent: an interrupted step's extra.cost too", () => {
    const text = trajectory(MINI, (t) => {
      t.messages.splice(3, 0, { role: 'user', content: 'Please always provide EXACTLY ONE action.', extra: { interrupt_type: 'FormatError', cost: 1e6 } });
    });
    expect(fieldsOf(text, 'run.traj.json')).toContainEqual(['messages[3].extra.cost', 'too_large', `$1000000 ${PAST}`]);
  });

  it("SWE-agent: the run's instance_cost at its own field", () => {
    const text = trajectory(SWE, (t) => {
      t.info.model_stats.instance_cost = 10000;
    });
    expect(fieldsOf(text, 'gpt4__run.traj')).toEqual([['info.model_stats.instance_cost', 'too_large', `$10000 ${PAST}`]]);
  });

  it('$9,007.19 still reads', () => {
    const text = trajectory(SWE, (t) => {
      t.info.model_stats.instance_cost = 9007.19;
    });
    expect(importText(text, 'gpt4__run.traj')[0]!.end.recordedCostUsd).toBe(9007.19);
  });
});
