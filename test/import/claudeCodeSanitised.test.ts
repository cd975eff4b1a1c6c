/**
 * A Claude Code log whose ids were sanitised: every `message.id` one placeholder (`msg_REDACTED`), every
 * `requestId` another. The lines of one response repeat its id and are one call; lines with the same id
 * that cannot be one response (another prompt usage, or a user prompt between) are calls of their own,
 * and a note says so once. The session is test/fixtures/claude-code (real, Claude Code 2.1.39, with a
 * response streamed over six lines whose tool results come between them).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraceFiles } from '../../src/import/index.js';
import type { Trace } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';
import { collectAsync } from '../helpers.js';

const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
const FIXTURE = 'test/fixtures/claude-code';

function sanitisedCopy(): { original: string; sanitised: string } {
  const dir = tempDir();
  cpSync(FIXTURE, dir, { recursive: true });
  const original = join(dir, `${SESSION}.jsonl`);
  const text = readFileSync(original, 'utf8')
    .replace(/"id":"msg_[0-9A-Za-z]+"/g, '"id":"msg_REDACTED"')
    .replace(/"requestId":"req_[0-9A-Za-z]+"/g, '"requestId":"req_REDACTED"');
  const otherDir = tempDir();
  cpSync(FIXTURE, otherDir, { recursive: true });
  const sanitised = join(otherDir, `${SESSION}.jsonl`);
  writeFileSync(sanitised, text);
  return { original, sanitised };
}

const usage = (runs: Trace[]) => runs.map((run) => run.calls.map((call) => [call.inputTokens, call.cachedInputTokens, call.outputTokens, (call.toolCalls ?? []).length, call.compaction === true]));
const notes = (runs: Trace[]) => runs.flatMap((run) => run.header.importedFrom?.notes ?? []);

describe('Claude Code: a log whose message ids and request ids are one placeholder', () => {
  it('reads the same calls as the log with its real ids (the streamed response still one call), and says so once', async () => {
    const { original, sanitised } = sanitisedCopy();
    expect(readFileSync(sanitised, 'utf8')).not.toMatch(/"id":"msg_01|"requestId":"req_01/);
    const real = await collectAsync(loadTraceFiles([original]));
    const redacted = await collectAsync(loadTraceFiles([sanitised]));
    const mainCalls = real.filter((run) => run.header.agent?.agentId === 'main').flatMap((run) => run.calls);
    expect(mainCalls.length).toBeGreaterThan(5);
    expect(usage(redacted)).toEqual(usage(real));
    expect(notes(real).join('\n')).not.toMatch(/repeat the message\.id/);
    const said = notes(redacted).filter((note) => note.includes('repeat the message.id'));
    expect(said).toEqual([
      `${mainCalls.filter((call) => !call.compaction).length - 1} responses repeat the message.id "msg_REDACTED" and requestId "req_REDACTED" of an earlier response they cannot be part of (another prompt usage, or a user prompt between; the ids look replaced, as in a sanitised log): each read as a call of its own, not merged`,
    ]);
  });
});
