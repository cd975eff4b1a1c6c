/**
 * Every line of a streamed Claude Code response is checked, not only the last one the call takes its usage
 * from: a negative `ephemeral_5m_input_tokens` (never read before: the 5-minute part was derived), 5-minute
 * and 1-hour parts past their total, and a line naming another model than the response's other lines. An
 * assistant line of a type loopcost does not read is said (a warning naming file and line, once per file).
 * Damaged copies of the trimmed fixture (test/fixtures/claude-code, from marot/spotter).
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { cli, tempDir } from '../cli/run.js';
import { asyncUserErrorOf } from '../helpers.js';

const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
const FIXTURE_DIR = 'test/fixtures/claude-code';
const NAME = `${SESSION}.jsonl`;
// The response msg_…yzk8LA is streamed over lines 7–10 (output 9 on lines 7–9, then 209 on line 10).

type Line = Record<string, any>;

/** A copy of the fixture tree (its sub-agents too unless `alone`) whose session file has `damage` done to its lines (1-based). */
function damagedSession(damage: (lines: Map<number, Line>) => void, alone = false): string {
  const dir = tempDir();
  if (alone) mkdirSync(dir, { recursive: true });
  else cpSync(FIXTURE_DIR, dir, { recursive: true });
  const texts = readFileSync(join(FIXTURE_DIR, NAME), 'utf8').split('\n');
  const lines = new Map(texts.map((text, i) => [i + 1, text.trim() === '' ? undefined : JSON.parse(text)] as const).filter((entry): entry is [number, Line] => entry[1] !== undefined));
  damage(lines);
  const path = join(dir, NAME);
  writeFileSync(path, texts.map((text, i) => (lines.has(i + 1) ? JSON.stringify(lines.get(i + 1)) : text)).join('\n'));
  return path;
}

const usageOf = (lines: Map<number, Line>, line: number) => lines.get(line)!.message.usage;

async function issuesOf(path: string) {
  return (await asyncUserErrorOf(() => loadTraceFile(path))).issues.map(({ line, field, message }) => ({ line, field, message }));
}

describe('every line of a streamed response is checked', () => {
  it('a negative ephemeral_5m_input_tokens, on the last line or an earlier one', async () => {
    for (const line of [10, 7]) {
      const path = damagedSession((lines) => (usageOf(lines, line).cache_creation.ephemeral_5m_input_tokens = -1));
      expect(await issuesOf(path)).toEqual([{ line, field: 'message.usage.cache_creation.ephemeral_5m_input_tokens', message: 'expected a token count ≥ 0, got -1' }]);
    }
  });

  it('5-minute and 1-hour cache writes past cache_creation_input_tokens', async () => {
    const path = damagedSession((lines) => (usageOf(lines, 8).cache_creation.ephemeral_1h_input_tokens = 10));
    expect(await issuesOf(path)).toEqual([
      { line: 8, field: 'message.usage.cache_creation.ephemeral_5m_input_tokens', message: '5-minute and 1-hour cache writes (8165 + 10) exceed cache_creation_input_tokens (8165)' },
    ]);
  });

  it('a line naming another model than the response: on its first line (said once), or on its last', async () => {
    const first = damagedSession((lines) => (lines.get(7)!.message.model = 'claude-imaginary-9'));
    expect(await issuesOf(first)).toEqual([
      {
        line: 8,
        field: 'message.model',
        message: 'names "claude-opus-4-6", but line 7, an earlier line of the same response (its message.id and requestId), names "claude-imaginary-9": the lines of one response name one model',
      },
    ]);
    const last = damagedSession((lines) => (lines.get(10)!.message.model = 'claude-imaginary-9'));
    expect((await issuesOf(last)).map(({ line, field }) => [line, field])).toEqual([[10, 'message.model']]);
  });
});

describe('an assistant line of a type loopcost does not read', () => {
  it('is warned of, naming the file and line, once per file, with the usage it leaves out', async () => {
    const path = damagedSession((lines) => (lines.get(10)!.type = 'alien'));
    const result = await cli('replay', path, '--format', 'json');
    expect(result.code).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.includes('alien'));
    expect(warnings).toEqual([
      `warning: ${path}#main.1: line 10 of ${NAME} is of type "alien", which is no Claude Code line type loopcost reads, yet carries a model response's usage (message.usage): skipped, so that usage and its cost are left out of the totals`,
    ]);
    // The call took the usage of its last line read: 9 output tokens, not the 209 of line 10.
    const [main1] = await loadTraceFile(path);
    expect(main1!.calls[0]!.outputTokens).toBe(9);
    const two = damagedSession((lines) => [10, 30].forEach((line) => (lines.get(line)!.type = 'alien')));
    const twice = (await cli('replay', two)).stderr.split('\n').filter((line) => line.includes('alien'));
    expect(twice).toEqual([expect.stringContaining(`: 2 lines of ${NAME} (the first: line 10) are of type "alien"`)]);
  });

  it('a session whose every response is of such lines is refused, saying why', async () => {
    const path = damagedSession((lines) => lines.forEach((line) => line.type === 'assistant' && (line.type = 'alien')), true);
    const issues = await issuesOf(path);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.message).toMatch(/^holds no model call loopcost reads \(\d+ lines, the first line 7, of type "alien", no Claude Code line type it reads, carry a model response's usage: not read\): no run to read/);
  });
});
