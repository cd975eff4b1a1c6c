/**
 * A real run its AbortSignal stopped is known by its end record's `aborted` mark (agent/records.ts
 * endRecord, kernel/gaveUp.ts runAborted), not by the words of its status: a marked recording whose
 * status reads otherwise still ends at its abort in every engine, and a recording written before the
 * mark (no `aborted`, the abort's words as status) still does too. The mark is read, by the fast reader
 * and by zod, only with outcome `unknown`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { loadTraceFile } from '../../src/import/index.js';
import { UserError } from '../../src/errors.js';
import { isSurelyValidEnd } from '../../src/trace/fastRecord.js';
import { tempDir } from '../cli/run.js';
import { pricings } from '../core/arbitraries.js';
import { everywhere, stopsInEveryEngine } from './everyEngine.js';
import { haltingModel, recordRun } from './recordedRuns.js';

const pricing = pricings[0]!;
// Both due when the tool aborted the run: 1 step taken, 1.5 s passed.
const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: 1, timeoutMs: 1000 };

/** A real run whose first call's tool aborts it, recorded to a file; the file's path. */
async function abortedRecordingPath(): Promise<string> {
  const clock = new VirtualClock();
  const model = haltingModel(pricing.model, clock, 1500, { inputTokens: 40, outputTokens: 30 });
  const { real, path } = await recordRun({ model, tools: [], brakes, pricing, clock, controller: new AbortController() });
  expect(real.stop.reason).toBe('aborted');
  return path;
}

/** The recording at `path` with its end record replaced by `end(recorded end)`, read back. */
async function withEnd(path: string, end: (recorded: Record<string, unknown>) => Record<string, unknown>) {
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  const changed = join(tempDir(), 'changed.jsonl');
  writeFileSync(changed, [...lines.slice(0, -1), JSON.stringify(end(JSON.parse(lines.at(-1)!)))].join('\n') + '\n');
  return (await loadTraceFile(changed))[0]!;
}

describe('an aborted live recording is known by its end record’s mark', () => {
  it('the recorder marks the abort; with other words in its status it still ends at its abort in every engine', async () => {
    const path = await abortedRecordingPath();
    const [recording] = await loadTraceFile(path);
    expect(recording!.end).toEqual({ type: 'end', outcome: 'unknown', status: 'stopped by its AbortSignal after 1 step', aborted: true, recordedCostUsd: expect.any(Number) });
    const reworded = await withEnd(path, (end) => ({ ...end, status: 'the caller cancelled the run' }));
    expect(stopsInEveryEngine(reworded, brakes)).toEqual(everywhere('trace_end', 'the caller cancelled the run'));
  });

  it('a recording written before the mark (no `aborted`, the abort’s words) still ends at its abort; without those words it meets the brakes', async () => {
    const path = await abortedRecordingPath();
    const old = await withEnd(path, ({ aborted: _aborted, ...end }) => end);
    expect(old.end.aborted).toBeUndefined();
    expect(stopsInEveryEngine(old, brakes)).toEqual(everywhere('trace_end', 'stopped by its AbortSignal after 1 step'));
    const reworded = await withEnd(path, ({ aborted: _aborted, ...end }) => ({ ...end, status: 'the caller cancelled the run' }));
    expect(stopsInEveryEngine(reworded, brakes)).toEqual(everywhere('max_steps', '1 step taken, limit 1'));
  });

  it('the mark is `true`, with outcome unknown only: anything else is refused, naming the field', async () => {
    expect(isSurelyValidEnd({ type: 'end', outcome: 'unknown', aborted: true })).toBe(true);
    expect(isSurelyValidEnd({ type: 'end', outcome: 'unknown', aborted: false })).toBe(false);
    const path = await abortedRecordingPath();
    for (const end of [{ aborted: false }, { outcome: 'error' }]) {
      const error = await withEnd(path, (recorded) => ({ ...recorded, ...end })).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(UserError);
      expect(JSON.stringify((error as UserError).issues)).toMatch(/aborted|outcome/);
    }
  });
});
