/**
 * Recordings as they come in the wild, and the damaged-input property test's finds, each pinned by a
 * plain test: a real trajectory whose clock steps back, an HTTP status that is not a status, a `-0`
 * count, a YAML escape that names no character.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { importMiniSweAgent } from '../../src/import/miniSweAgent.js';
import { parseAnyScenario } from '../../src/scenario/load.js';
import { asyncUserErrorOf, userErrorOf } from '../helpers.js';
import type { Trace } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';

const SKEWED = 'test/fixtures/mini-swe-agent/django__django-12470.clock-skew.traj.json.gz';
const dir = tempDir();
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('recordings as they come', () => {
  it('a real trajectory whose tool result is stamped 0.419 s before the call that asked for it imports: gap 0 ms, noted', async () => {
    const [trace] = (await loadTraceFile(SKEWED)) as [Trace];
    expect(trace.header.importedFrom!.notes).toContainEqual(expect.stringMatching(/^1 message timestamp\(s\) run up to 0\.419 s behind the one before \(clock skew/));
    const doc = JSON.parse(gunzipSync(readFileSync(SKEWED)).toString('utf8')) as { messages: { extra?: { timestamp?: number } }[] };
    const stamps = doc.messages.map((m) => m.extra?.timestamp).filter((t): t is number => t !== undefined);
    // The skew neither shortens nor lengthens the run: call latencies add up to the last stamp − the first.
    const totalMs = trace.calls.reduce((sum, c) => sum + (c.latencyMs ?? 0) + (c.toolCalls ?? []).reduce((s, t) => s + (t.latencyMs ?? 0), 0), 0);
    expect(Math.abs(totalMs - (Math.max(...stamps) - stamps[0]!) * 1000)).toBeLessThan(2 * trace.calls.length);
  });

  it('a step back of more than 5 s is refused as corrupted, naming the message', () => {
    const text = gunzipSync(readFileSync(SKEWED)).toString('utf8');
    const doc = JSON.parse(text) as { messages: { extra?: { timestamp?: number } }[] };
    doc.messages[25]!.extra!.timestamp! -= 6;
    const issues = userErrorOf(() => importMiniSweAgent(JSON.stringify(doc), 'm.json')).issues;
    expect(issues).toContainEqual(expect.objectContaining({ field: 'messages[25].extra.timestamp', code: 'end_before_start' }));
  });

  it('an HTTP status that is not a whole number from 100 to 599 is refused, in a cassette as in exchanges', async () => {
    const cassette = (code: string) => `interactions:\n- request:\n    method: POST\n    uri: https://api.openai.com/v1/chat/completions\n    body: '{"model":"gpt-4o","messages":[]}'\n  response:\n    status:\n      code: ${code}\n      message: Too Many Requests\n    body:\n      string: '{"error":{"message":"slow down"}}'\nversion: 1\n`;
    for (const code of ['429.5', '99', '"429"']) {
      const error = await asyncUserErrorOf(() => loadTraceFile(write('c.yaml', cassette(code))));
      expect(error.issues[0]).toMatchObject({ field: 'interactions[0].response.status.code', code: 'wrong_type' });
      expect(error.issues[0]!.message).toMatch(/expected an HTTP status code \(100–599\)/);
    }
  });

  it('a count written -0 reads as 0, so a run reads back from its own export as imported', async () => {
    const path = write('z.jsonl', '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":1,"goalTokens":1}\n{"type":"call","inputTokens":10,"cacheWriteTokens":-0,"outputTokens":-0}\n{"type":"end","outcome":"completed"}\n');
    const [trace] = (await loadTraceFile(path)) as [Trace];
    expect(Object.is(trace.calls[0]!.cacheWriteTokens, 0) && Object.is(trace.calls[0]!.outputTokens, 0)).toBe(true);
  });

  it('a YAML escape that names no Unicode character is a UserError naming the file, not a RangeError', () => {
    const error = userErrorOf(() => parseAnyScenario('name: "\\U1e308000"\n', 'bad.yaml'));
    expect(error.issues[0]).toMatchObject({ file: 'bad.yaml', code: 'invalid_yaml' });
    expect(error.issues[0]!.message).toMatch(/names no Unicode character/);
  });
});
