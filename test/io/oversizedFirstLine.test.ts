/**
 * A JSONL file whose first line passes --max-line-mb is told by that line, as a later line is (`line 3: is a
 * line of more than …`): its format could not be told from a line too long to look at, so it was read as
 * one document and said to be "one document of more than 1 MB", with no line. A one-document file past the
 * limit (compact or pretty-printed) is still told as one document.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { tempDir } from '../cli/run.js';
import { asyncUserErrorOf } from '../helpers.js';

const KB = 1024;
// A first line longer than the 64 KB an input's format is told from (src/io/openInput.ts HEAD_BYTES).
const LIMITS = { limits: { maxLineBytes: 10 * KB } };
const HEADER = (task: string) => JSON.stringify({ type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 10, goalTokens: 5, task });
const REST = '{"type":"call","inputTokens":100,"outputTokens":5}\n{"type":"end","outcome":"completed"}\n';
const MINI = JSON.parse(readFileSync('test/fixtures/mini-swe-agent/deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json', 'utf8')) as Record<string, unknown>;
const dir = tempDir();

function write(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

async function issueOf(path: string) {
  return (await asyncUserErrorOf(() => loadTraceFile(path, LIMITS))).issues[0]!;
}

describe('an oversized first line of a JSONL file', () => {
  it('is told as line 1, plain, gzip, or after blank lines (their count kept)', async () => {
    const text = `${HEADER('x'.repeat(100 * KB))}\n${REST}`;
    expect(await issueOf(write('first.jsonl', text))).toMatchObject({ line: 1, code: 'too_large', message: 'is a line of more than 10,240 bytes, the most one record may hold' });
    expect(await issueOf(write('first.jsonl.gz', gzipSync(text)))).toMatchObject({ line: 1, code: 'too_large' });
    expect(await issueOf(write('blank-first.jsonl', `\n \n${text}`))).toMatchObject({ line: 3, code: 'too_large' });
  });

  it('as a later line is', async () => {
    const text = `${HEADER('x')}\n${REST.replace('"outputTokens":5', `"outputTokens":5,"x":"${'y'.repeat(20 * KB)}"`)}`;
    expect(await issueOf(write('second.jsonl', text))).toMatchObject({ line: 2, code: 'too_large', message: 'is a line of more than 10,240 bytes, the most one record may hold' });
  });

  it('a one-document file past the limit is still one document: compact, with a line break at its end, or pretty-printed', async () => {
    const big = { ...MINI, pad: 'x'.repeat(100 * KB) };
    for (const [name, text] of [['compact.traj.json', JSON.stringify(big)], ['compact-nl.traj.json', `${JSON.stringify(big)}\n\n`], ['pretty.traj.json', JSON.stringify(big, null, 2)]] as const) {
      const issue = await issueOf(write(name, text));
      expect(issue, name).toMatchObject({ code: 'too_large', message: 'is one document of more than 10,240 bytes, the most one record may hold' });
      expect(issue.line, name).toBeUndefined();
    }
  });
});
