/**
 * A mini-swe-agent message's `extra.timestamp` far outside any real time (1e20 s, −1e20 s) is one issue at
 * that field: it was a 7 KB message blaming every later message for running backwards (1e20), or a
 * latency of the converted run (`calls[0].toolCalls[0].latencyMs`, a field the user's file does not have).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importMiniSweAgent } from '../../src/import/miniSweAgent.js';
import { userErrorOf } from '../helpers.js';

const PATH = 'test/fixtures/mini-swe-agent/deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json';

/** The fixture with its first assistant message (messages[2]) stamped `seconds`. */
function stamped(seconds: number): string {
  const trajectory = JSON.parse(readFileSync(PATH, 'utf8'));
  trajectory.messages[2].extra.timestamp = seconds;
  return JSON.stringify(trajectory);
}

describe('mini-swe-agent timestamps out of range', () => {
  for (const [seconds, shown] of [
    [1e20, '100000000000000000000'],
    [-1e20, '-100000000000000000000'],
    [253_402_300_800, '253402300800'],
  ] as const) {
    it(`${shown} s is one issue at messages[2].extra.timestamp`, () => {
      const error = userErrorOf(() => importMiniSweAgent(stamped(seconds), PATH));
      expect(error.issues.map(({ field, code, message }) => ({ field, code, message }))).toEqual([
        { field: 'messages[2].extra.timestamp', code: 'invalid_value', message: `expected a unix time in seconds of the years 1970–9999 (0 to under 253402300800), got ${shown}` },
      ]);
      expect(error.message.length).toBeLessThan(400);
    });
  }

  it('the last second of the year 9999 is a time (later messages are then read as stepping back)', () => {
    const error = userErrorOf(() => importMiniSweAgent(stamped(253_402_300_799), PATH));
    expect(error.issues[0]!.field).toBe('messages[3].extra.timestamp');
    expect(error.issues[0]!.code).toBe('end_before_start');
  });
});
