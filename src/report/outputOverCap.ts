/**
 * The recorded_output_over_cap warning: recorded calls whose output passes the max_tokens a setting sends
 * (`--max-output-tokens`, default 4096; the real loop sends it as `max_completion_tokens`). Replay and
 * what-if bill a recorded call as recorded, open loop, whatever its length; a real loop sending that cap —
 * on a provider, or on `loopcost serve` answering from the recording — has such an answer cut at it (the one
 * rule: synthetic/outputCap.ts cutAtCap: billed at the cap, its tool calls gone, a step that makes no
 * progress), so its run goes otherwise and costs otherwise. Counted per run, for each cap its settings send,
 * over the calls its replay made (one setting, one replay at hand: replay, compare, project) or its whole
 * recording (several settings: whatif's tries, contexts' rows, sweep's and calibrate's grid); failed calls
 * (no output) and compaction calls (the summary's own cap) are not counted. Counts are plain data and add up:
 * a sweep's threads count their runs apart (cli/actions/sweepHeaderFacts.ts) and the command joins them.
 * Pure: no node:*, no clock.
 */
import { CallField, CallFlag } from '../kernel/callRecord.js';
import { CompiledField } from '../fast/layout.js';
import { maxOutputTokensSent, type BrakeConfig } from '../brakes/config.js';
import { handedOverCompiled } from '../replay/compiledRuns.js';
import { recordedBrakes, triedBrakes, type WhatIfSetting } from '../replay/whatif.js';
import type { Trace } from '../trace/types.js';
import { counted } from '../plural.js';
import type { ReportWarning } from './warnings.js';
import { maxOf } from '../metrics/extremes.js';

/** Which of a run's settings send a cap: `settings` of the `of` settings it is counted under. */
export interface SentBy {
  settings: number;
  of: number;
}

/** A run's calls past one cap: how many, the largest output among them, and the settings that send it. */
export interface RunOverCap {
  capTokens: number;
  calls: number;
  largestOutputTokens: number;
  sentBy: SentBy;
}

/** Calls whose output is no cut at any cap (failed: no output; compaction: sent with the summary's own cap). */
const NOT_CAPPED = CallFlag.Failed | CallFlag.Compaction;

/** The outputs of `trace`'s first `callsMade` calls that a cap applies to, read off its compiled trace when its calls were let go. */
function cappedOutputs(trace: Trace, callsMade: number): number[] {
  const compiled = handedOverCompiled(trace);
  if (compiled === undefined) return trace.calls.slice(0, callsMade).flatMap((call) => (call.failed || call.compaction ? [] : [call.outputTokens]));
  const outputs: number[] = [];
  for (let i = 0; i < Math.min(callsMade, compiled.calls); i++) {
    const at = i * CompiledField.Stride;
    if (((compiled.records[at + CallField.Flags]! | 0) & NOT_CAPPED) === 0) outputs.push(compiled.records[at + CallField.Output]!);
  }
  return outputs;
}

/**
 * For each cap of `sent` (the max_tokens each of its settings sends, one entry a setting: sentCaps) that a call of `trace`
 * passes, those calls and how many of the settings send it; over its first `callsMade` calls (default: all).
 */
export function runOverCaps(trace: Trace, sent: readonly number[], callsMade = Infinity): RunOverCap[] {
  if (sent.length === 0) return [];
  const outputs = cappedOutputs(trace, callsMade);
  return capGroups(sent).flatMap(({ capTokens, sentBy }) => {
    const over = outputs.filter((output) => output > capTokens);
    return over.length === 0 ? [] : [{ capTokens, calls: over.length, largestOutputTokens: maxOf(over), sentBy: { ...sentBy } }];
  });
}

/** The distinct caps of `sent`, ascending, each with how many of its settings send it. */
type CapGroup = { capTokens: number; sentBy: SentBy };

/** Cap groups by `sent` array: a sweep counts every run under its grid's one array (one entry a configuration), so they are grouped once. */
const capGroupsOf = new WeakMap<readonly number[], CapGroup[]>();

function capGroups(sent: readonly number[]): CapGroup[] {
  let groups = capGroupsOf.get(sent);
  if (groups === undefined) {
    const settings = new Map<number, number>();
    for (const cap of sent) settings.set(cap, (settings.get(cap) ?? 0) + 1);
    groups = [...settings].sort((a, b) => a[0] - b[0]).map(([capTokens, n]) => ({ capTokens, sentBy: { settings: n, of: sent.length } }));
    capGroupsOf.set(sent, groups);
  }
  return groups;
}

/** The max_tokens each of `brakes` sends, one entry a setting (a cap several send, as often): what runOverCaps counts a run under. */
export function sentCaps(brakes: readonly Pick<BrakeConfig, 'maxOutputTokens'>[]): number[] {
  return brakes.map(maxOutputTokensSent);
}

/** The max_tokens each what-if try sends on a recorded run (each try on the run's baseline: replay/whatif.ts triedBrakes; one entry a try: sentCaps), the command's and the library's alike. */
export function whatIfSentCaps(settings: readonly Pick<WhatIfSetting, 'brakes' | 'onTop'>[]): (trace: Trace) => number[] {
  return (trace) => {
    const baseline = recordedBrakes(trace);
    return sentCaps(settings.map((setting) => triedBrakes(baseline, setting)));
  };
}

/** The calls past one cap, over the runs counted: how many, in how many runs, the largest output among them, and the settings that send it (absent: not the same for every run). */
export interface OutputOverCapCount {
  capTokens: number;
  calls: number;
  runs: number;
  largestOutputTokens: number;
  sentBy?: SentBy;
}

/** What the runs gave (plain data: a sweep's worker thread sends it), by cap ascending; `wholeRecordings`: some were counted over their whole recording. */
export interface OutputOverCapCounts {
  caps: OutputOverCapCount[];
  wholeRecordings?: true;
}

/** The runs' calls past each cap, added up run by run, or counts made apart (another thread's) added up; `wholeRecordings`: some runs were counted over their whole recording. */
export class OutputOverCapTally {
  private readonly byCap = new Map<number, OutputOverCapCount>();
  private wholeRecordings = false;

  add(run: readonly RunOverCap[] | undefined, wholeRecording: boolean): this {
    for (const { capTokens, calls, largestOutputTokens, sentBy } of run ?? []) {
      this.addCount({ capTokens, calls, runs: 1, largestOutputTokens, sentBy });
      if (wholeRecording) this.wholeRecordings = true;
    }
    return this;
  }

  /** Counts made apart (another file's, another thread's). */
  addCounted(counts: OutputOverCapCounts | undefined): this {
    for (const count of counts?.caps ?? []) this.addCount(count);
    if (counts?.wholeRecordings === true) this.wholeRecordings = true;
    return this;
  }

  private addCount({ capTokens, calls, runs, largestOutputTokens, sentBy }: OutputOverCapCount): void {
    const sum = this.byCap.get(capTokens);
    // Which settings send it, while every run counted says the same (a what-if try on each run's own recorded cap may send another).
    const same = sum === undefined ? sentBy : sum.sentBy !== undefined && sentBy !== undefined && sum.sentBy.settings === sentBy.settings && sum.sentBy.of === sentBy.of ? sum.sentBy : undefined;
    const count = { capTokens, calls: (sum?.calls ?? 0) + calls, runs: (sum?.runs ?? 0) + runs, largestOutputTokens: Math.max(sum?.largestOutputTokens ?? 0, largestOutputTokens) };
    this.byCap.set(capTokens, same === undefined ? count : { ...count, sentBy: { ...same } });
  }

  /** What it counted (copies), by cap ascending; none when no call passed a cap. */
  counted(): OutputOverCapCounts | undefined {
    if (this.byCap.size === 0) return undefined;
    const caps = [...this.byCap.values()].map((count) => ({ ...count, ...(count.sentBy === undefined ? {} : { sentBy: { ...count.sentBy } }) })).sort((a, b) => a.capTokens - b.capTokens);
    return { caps, ...(this.wholeRecordings ? { wholeRecordings: true as const } : {}) };
  }

  warnings(): ReportWarning[] {
    return outputOverCapWarnings(this.counted());
  }
}

/** Which settings send a cap: all (`these settings send`), how many of them, or (not the same for every run) some. */
function sentByWords(sentBy: SentBy | undefined): string {
  if (sentBy === undefined) return 'some settings send';
  if (sentBy.settings === sentBy.of) return 'these settings send';
  return `that ${sentBy.settings} of the ${sentBy.of} settings ${sentBy.settings === 1 ? 'sends' : 'send'}`;
}

/** The recorded_output_over_cap warning of the calls counted (none: no warning). */
export function outputOverCapWarnings(counts: OutputOverCapCounts | undefined): ReportWarning[] {
  if (counts === undefined || counts.caps.length === 0) return [];
  const { caps } = counts;
  const largest = maxOf(caps.map((count) => count.largestOutputTokens));
  const each = caps.map((count) => `${counted(count.calls, 'recorded call')} in ${counted(count.runs, 'run')} output more than the max_tokens ${count.capTokens} ${sentByWords(count.sentBy)}`);
  const over = counts.wholeRecordings === true ? ' (counted over the whole recordings)' : '';
  return [
    {
      code: 'recorded_output_over_cap',
      message:
        `${each.join('; ')}${over}, the largest ${largest} tokens: replayed open loop, they are billed as recorded, but a real loop sending that cap (on a provider, or on loopcost serve answering from these recordings) has them cut at it ` +
        `(billed at the cap, finish_reason length, their tool calls gone: a step that makes no progress), so its runs go and cost otherwise; ` +
        `to compare with a real loop, send a cap of at least ${largest} (--max-output-tokens ${largest}, and max_completion_tokens in the loop), or for the cap's effect on what agents do, fit a synthetic population to these runs and replay it closed loop under the cap (loopcost fit, then replay profile.yaml --runs N)`,
    },
  ];
}
