/**
 * A trajectory whose list of messages or steps is broken (`messages: null`, a string) is read as the
 * trajectory it is and the field named (`field 'messages': expected an array …`), as its other broken
 * fields are: it was "not a trace format loopcost reads (its first record's fields: info, messages, …)".
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/import/formats.js';
import { importText } from '../../src/import/importText.js';
import { userErrorOf } from '../helpers.js';

const MINI = JSON.parse(readFileSync('test/fixtures/mini-swe-agent/deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json', 'utf8')) as Record<string, unknown>;
const SWE_FILE = 'test/fixtures/swe-agent/gpt4__swe-agent__test-repo-i1.traj';

function issueOf(doc: unknown, path: string) {
  return userErrorOf(() => importText(JSON.stringify(doc, null, 2), path)).issues[0]!;
}

describe('a trajectory with a broken list', () => {
  for (const [value, got] of [[null, 'got null'], ['x', 'got the string "x"'], [{}, 'got an object']] as const) {
    it(`mini-swe-agent messages: ${JSON.stringify(value)} is named as the field, not an unknown format`, () => {
      const doc = { ...MINI, messages: value };
      expect(detectFormat(JSON.stringify(doc), 'run.traj.json')).toBe('mini-swe-agent');
      const issue = issueOf(doc, 'run.traj.json');
      expect(issue).toMatchObject({ file: 'run.traj.json', field: 'messages', code: 'wrong_type' });
      expect(issue.message).toContain(`expected an array of chat messages, ${got}`);
    });
  }

  it('without trajectory_format, messages beside mini-swe-agent info is still a mini-swe-agent trajectory', () => {
    const { trajectory_format: _format, ...rest } = MINI;
    const doc = { ...rest, messages: null };
    expect(detectFormat(JSON.stringify(doc), 'run.traj.json')).toBe('mini-swe-agent');
  });

  it('a missing messages list is still said to be missing', () => {
    const { messages: _messages, ...doc } = MINI;
    expect(issueOf(doc, 'run.traj.json')).toMatchObject({ field: 'messages', code: 'missing_field' });
  });

  it('SWE-agent trajectory: null is named as the field', () => {
    const swe = JSON.parse(readFileSync(SWE_FILE, 'utf8')) as Record<string, unknown>;
    const issue = issueOf({ ...swe, trajectory: null }, 'run.traj');
    expect(issue).toMatchObject({ field: 'trajectory', code: 'wrong_type' });
    expect(issue.message).toContain('expected an array (one entry per agent step), got null');
  });
});
