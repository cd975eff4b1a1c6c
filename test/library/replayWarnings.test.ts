/**
 * replayWarnings gives a library caller the warnings `loopcost replay` prints for the same runs and settings:
 * the same codes and lines as `--format json`'s `warnings` — a price gap and importer's notes on a shared real
 * run, a context strategy that changes cost only (open loop) on a live loop's recording, the strategy a
 * recording states and replays under, repeat-action skip replayed open loop. Its arguments are checked as
 * replayTrace's are, naming replayWarnings.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { BrakeConfig } from '../../src/brakes/config.js';
import { brakesFromFlags, type BrakeFlags } from '../../src/flags/settingsFlags.js';
import { replayWarnings, type ReplayWarningOptions } from '../../src/cli/actions/replayWarnings.js';
import { parseContextSpec, type ContextStrategy } from '../../src/context/strategy.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { Trace } from '../../src/trace/types.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { answer, ScriptedModel, toolTurn } from '../agent/scripted.js';
import { cli, tempDir } from '../cli/run.js';
import { userErrorOf } from '../helpers.js';

const prices = loadPriceTable();
const SHARED = '../shared/traces/mini-swe-agent/deepseek_chat_dev/marshmallow-code__marshmallow-1343.traj.json.gz';

/** What `loopcost replay FILE FLAGS --format json` warns. */
async function cliWarnings(file: string, flags: string[]): Promise<unknown[]> {
  const out = await cli('replay', file, ...flags, '--format', 'json');
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout).warnings;
}

/** The library's warnings for the run of `file` under the settings `flags` give (`--context` as a strategy, the rest as brakes). */
async function libraryWarnings(file: string, flags: string[], extra: Partial<ReplayWarningOptions> = {}): Promise<unknown[]> {
  const traces = await loadTraceFile(file);
  const at = flags.indexOf('--context');
  const strategy: ContextStrategy = at < 0 ? { kind: 'full' } : parseContextSpec(flags[at + 1]!);
  const brakeFlags = at < 0 ? flags : [...flags.slice(0, at), ...flags.slice(at + 2)];
  const brakes = brakeSettings(brakeFlags);
  // With the replays' results, as the command has them (a brake's early stop is read off them: open_loop_brakes).
  const results = traces.map((trace) => replayTrace(trace, { brakes, strategy, prices }));
  return replayWarnings(traces, { brakes, strategy, prices, inputs: [file], results, ...extra });
}

/** `--max-repeat N` and `--repeat-action skip` as library brake settings (as the CLI reads them). */
function brakeSettings(flags: string[]): BrakeConfig {
  const value = (flag: string) => (flags.includes(flag) ? flags[flags.indexOf(flag) + 1] : undefined);
  const maxRepeat = value('--max-repeat');
  const repeatAction = value('--repeat-action');
  const given: BrakeFlags = { ...(maxRepeat === undefined ? {} : { maxRepeat }), ...(repeatAction === undefined ? {} : { repeatAction }) };
  return brakesFromFlags(given);
}

/** A live loop's run under a window of 8 steps, recorded (its header states the strategy) into a file. */
async function liveWindowRecording(): Promise<string> {
  const recorder = memoryRecorder('live');
  const steps = Array.from({ length: 12 }, (_, i) => toolTurn('read', { page: i }, { inputTokens: 500 + 300 * i, outputTokens: 40 }));
  await runAgentLoop({
    model: new ScriptedModel([...steps, answer('done')], 'gpt-4o-mini'),
    tools: [{ name: 'read', description: 'reads a page', parameters: { type: 'object' }, run: () => ({ output: 'page', tokens: 300 }) }],
    brakes: { maxSteps: 20 },
    context: { system: 's', goal: 'g', strategy: { kind: 'window', windowSteps: 8 }, countTokens: (text: string) => text.length },
    pricing: prices.resolve('gpt-4o-mini'),
    recorder,
    clock: new VirtualClock(),
  });
  const path = join(tempDir(), 'live.jsonl');
  writeFileSync(path, writeNativeTraces([recorder.trace()]));
  return path;
}

describe('replayWarnings: the warnings loopcost replay prints, for a library caller', () => {
  it('a shared real run: price gap, open loop and import notes, as the CLI words them', async () => {
    for (const flags of [['--context', 'window:8', '--max-repeat', '2'], [], ['--max-repeat', '2', '--repeat-action', 'skip']]) {
      const library = await libraryWarnings(SHARED, flags);
      expect(library, flags.join(' ')).toEqual(await cliWarnings(SHARED, flags));
      expect(library.length).toBeGreaterThan(0);
    }
  });

  it("a live loop's recording under window:8: replayed under window:8, as it ran (no open_loop: no context changed it); under full history, its stated strategy", async () => {
    const file = await liveWindowRecording();
    const windowed = await libraryWarnings(file, ['--context', 'window:8']);
    expect(windowed).toEqual(await cliWarnings(file, ['--context', 'window:8']));
    expect(windowed.map((w) => (w as { code: string }).code)).toEqual([]);
    const full = await libraryWarnings(file, []);
    expect(full.map((w) => (w as { code: string }).code)).toEqual(['recorded_strategy']);
    // Every run replays under its stated strategy: replay's settings line names it, so its warnings do not; a library caller has no settings line, and is warned.
    expect(await cliWarnings(file, [])).toEqual([]);
    expect(JSON.parse((await cli('replay', file, '--format', 'json')).stdout).settings.context).toBe('as recorded (window:8 ×1)');
  });

  it("with the replays' results, what is read off them too; none when nothing could mislead", async () => {
    const [trace] = await loadTraceFile('scenarios/reverify-forever.jsonl');
    const results = [replayTrace(trace!, { brakes: {}, strategy: { kind: 'full' }, prices })];
    expect(replayWarnings([trace!], { brakes: {}, strategy: { kind: 'full' }, prices, results })).toEqual([]);
    const cacheOn = { kind: 'full', cache: 'on' } as const;
    const cached = replayWarnings([trace!], { brakes: {}, strategy: cacheOn, prices, results: [replayTrace(trace!, { brakes: {}, strategy: cacheOn, prices })] });
    expect(cached).toEqual(await cliWarnings('scenarios/reverify-forever.jsonl', ['--cache', 'on']));
    expect(cached.map((w) => w.code)).toEqual(['cache_min_prefix']);
  });

  it('its arguments are checked, naming replayWarnings', async () => {
    const trace = { source: 'x' } as unknown as Trace;
    expect(userErrorOf(() => replayWarnings([trace], { brakes: {}, strategy: { kind: 'full' }, prices })).issues[0]!.file).toBe('<replayWarnings arguments>');
    const [t] = await loadTraceFile('scenarios/reverify-forever.jsonl');
    const error = userErrorOf(() => replayWarnings([t!], { brakes: { maxStep: 3 } as never, strategy: { kind: 'full' }, prices }));
    expect(error.issues.map((issue) => [issue.file, issue.field])).toEqual([['<replayWarnings options>', 'brakes.maxStep']]);
  });
});
