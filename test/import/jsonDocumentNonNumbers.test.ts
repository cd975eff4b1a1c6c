/**
 * A JSON-document trace (a trajectory Python's json.dump wrote with indent) holding NaN or Infinity, or a
 * number past a double's range, is named at its line and field, as a native line's is: V8 reports no
 * position for an unexpected token, so `"cost_limit": NaN` on line 12 was "not valid JSON (Unexpected
 * token 'N' …)" with no line, and `1e400` read as Infinity ("got number Infinity", no line, not as written).
 * Any other unexpected token is placed from the context V8 quotes around it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jsonErrorOffset } from '../../src/io/jsonSyntax.js';
import { importText } from '../../src/import/importText.js';
import { userErrorOf } from '../helpers.js';

const PATH = 'test/fixtures/mini-swe-agent/deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json';
/** The fixture as json.dump(indent=2) writes it: `"cost_limit": 3` is on line 12. */
const PRETTY = JSON.stringify(JSON.parse(readFileSync(PATH, 'utf8')), null, 2);

function withCostLimit(written: string): string {
  const lines = PRETTY.split('\n');
  expect(lines[11]).toBe('        "cost_limit": 3,');
  lines[11] = `        "cost_limit": ${written},`;
  return lines.join('\n');
}

describe('NaN, Infinity and 1e400 in a JSON-document trace', () => {
  it('the pretty fixture reads as it is', () => {
    expect(importText(PRETTY, 'run.traj.json').length).toBe(1);
  });

  for (const token of ['NaN', 'Infinity', '-Infinity']) {
    it(`a bare ${token} is named at its line and field`, () => {
      const err = userErrorOf(() => importText(withCostLimit(token), 'run.traj.json'));
      expect(err.issues[0]).toMatchObject({ file: 'run.traj.json', line: 12, field: 'info.config.agent.cost_limit', code: 'invalid_json' });
      expect(err.message).toContain(`is not valid JSON at column 23: ${token} is not a JSON number (JSON has no NaN or Infinity)`);
    });
  }

  it('1e400 is refused as too large at its line and field, quoted as written', () => {
    const err = userErrorOf(() => importText(withCostLimit('1e400'), 'run.traj.json'));
    expect(err.issues[0]).toMatchObject({ file: 'run.traj.json', line: 12, field: 'info.config.agent.cost_limit', code: 'too_large' });
    expect(err.message).toContain('is 1e400, too large');
  });

  it('another unexpected token is placed at its line', () => {
    const err = userErrorOf(() => importText(withCostLimit('tru'), 'run.traj.json'));
    expect(err.issues[0]).toMatchObject({ file: 'run.traj.json', line: 12, field: 'info.config.agent.cost_limit', code: 'invalid_json' });
    expect(err.issues[0]!.message).toBe("is not valid JSON at column 26: Unexpected token ','");
  });
});

describe('jsonErrorOffset', () => {
  function offsetOf(text: string): number | undefined {
    try {
      JSON.parse(text);
    } catch (error) {
      return jsonErrorOffset(text, error);
    }
    throw new Error('parsed');
  }

  it('finds the token from the context V8 quotes: at the start, in the middle, at the end', () => {
    const long = `"${'b'.repeat(30)}": 1`;
    for (const text of [`{"a": x, ${long}}`, `{${long}, "a": x, ${long}}`, `{${long}, "a": x}`]) {
      expect(offsetOf(text)).toBe(text.indexOf('x'));
    }
  });

  it('keeps the position V8 gives, and places the token of a short text it quotes whole', () => {
    expect(offsetOf('{"a" 1}')).toBe(5);
    expect(offsetOf('{"a": x}')).toBe(6);
    expect(offsetOf('{"a": 1, "b": }')).toBe(14);
  });
});
