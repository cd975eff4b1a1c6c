/**
 * A live recording writes a call whose tools ran twice (trace/liveRecording.ts): its header says so
 * (`liveLines: "pending-then-complete"`), so a loopcost older than the mark refuses the file (its header has
 * an unknown field) instead of counting the first lines as calls, and the reader replaces a first line only
 * in a run so marked. Review: an older reader read a recording of 5 calls ($0.000912) as 9 ($0.00163), silently.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadTraceFile } from '../../src/import/index.js';
import { UserError } from '../../src/errors.js';
import { MINI } from '../helpers.js';
import { tempDir } from '../cli/run.js';
import { answer, ScriptedModel, toolTurn } from '../agent/scripted.js';

/** A finished live recording of 3 calls, two of them with a tool (so 5 call lines); its path and its lines. */
async function recording(): Promise<{ path: string; lines: Record<string, unknown>[] }> {
  const path = join(tempDir(), 'live.jsonl');
  const model = new ScriptedModel([toolTurn('echo', { text: 'a' }), toolTurn('echo', { text: 'b' }), answer('done')]);
  const echo = { name: 'echo', description: '', parameters: { type: 'object' }, run: ({ text }: { text: string }) => text };
  const brakes = { ...NO_BRAKES, maxSteps: 10 };
  await runAgentLoop({ model, tools: [echo], brakes, context: { system: 's', goal: 'g', countTokens: () => 7 }, pricing: MINI, clock: new VirtualClock(), recorder: fileRecorder(path) });
  return { path, lines: readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>) };
}

function rewrite(path: string, lines: readonly Record<string, unknown>[]): void {
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
}

describe("a live recording's header marks its calls written twice", () => {
  it('the recorder writes the mark, and the marked file reads each call once', async () => {
    const { path, lines } = await recording();
    // Each call also written as sent before it is made (3 more lines): the mark since (trace/liveRecording.ts LIVE_LINES_SENT).
    expect(lines.filter((line) => line.type === 'call')).toHaveLength(8);
    expect(lines[0]).toMatchObject({ live: true, liveLines: 'sent-pending-complete' });
    const [trace] = await loadTraceFile(path);
    expect(trace!.calls).toHaveLength(3);
    expect(trace!.calls.some((call) => call.toolCalls?.some((tool) => tool.unreached === true))).toBe(false);
  });

  it('a file without the mark reads every call line as a call, as before (live or not)', async () => {
    const { path, lines } = await recording();
    const { liveLines: _mark, ...unmarked } = lines[0]!;
    rewrite(path, [unmarked, ...lines.slice(1)]);
    const [trace] = await loadTraceFile(path);
    expect(trace!.calls).toHaveLength(8);
    expect(trace!.calls.filter((call) => call.toolCalls?.[0]?.unreached === true)).toHaveLength(2);
  });

  it('a header naming another way of writing the lines is refused, naming the field', async () => {
    const { path, lines } = await recording();
    rewrite(path, [{ ...lines[0]!, liveLines: 'complete-only' }, ...lines.slice(1)]);
    const error = await loadTraceFile(path).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).issues[0]).toMatchObject({ file: path, line: 1, field: 'liveLines' });
  });
});
