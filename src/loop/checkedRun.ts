/**
 * runLoop as the library gives it: what a caller's StepSource hands the loop is held to the rules a trace
 * file's calls are (options/traceValues.ts callValueIssues: the native call schema, then the figure rules),
 * so `outputTokens: -50` or `NaN` is a UserError naming the source and the call (`<runLoop arguments>` field
 * `source.next().outputTokens`, "call 3: …"), never a run billed less or a refusal of a cost no call had.
 * The engines' own sources (a replayed trace, already checked; a synthetic agent's draws) run through
 * loop/run.ts unchecked: a check per call would cost every replay and sweep.
 */
import { UserError } from '../errors.js';
import { argumentsFile } from '../options/arguments.js';
import { callValueIssues } from '../options/traceValues.js';
import { isObject } from '../options/issues.js';
import type { CallRecord } from '../trace/types.js';
import { runLoop as runCheckedLoop } from './run.js';
import { sourceFacts } from './sourceFacts.js';
import type { LoopOptions, RunOutcome, StepSource } from './types.js';

const FILE = argumentsFile('runLoop');
const HINT = 'a StepSource returns a CallRecord as a trace file holds it (docs/trace-format.md), or null when it has no more calls';

/** Runs `source` under `options` (loop/run.ts runLoop), each response the source gives checked first. */
export function runLoop(source: StepSource, options: LoopOptions): RunOutcome {
  if (!isObject(source) || typeof source.next !== 'function' || typeof source.exhaustedReason !== 'function') {
    throw new UserError({ file: FILE, field: 'source', code: source === undefined ? 'missing_input' : 'invalid_input', message: `${source === undefined ? 'is missing' : 'is not a StepSource'}: runLoop takes an object with next(view, state, request) and exhaustedReason()`, hint: 'new ReplaySource(trace) replays a trace; a source of your own implements StepSource' });
  }
  if (!isObject(options)) {
    throw new UserError({ file: FILE, field: 'options', code: options === undefined ? 'missing_input' : 'invalid_input', message: `${options === undefined ? 'is missing' : 'is not an object'}: runLoop takes LoopOptions`, hint: '{ brakes, strategy, cache, pricing, systemTokens, goalTokens }' });
  }
  return runCheckedLoop(checkedSource(source), options);
}

/** `source` with every response it gives (`next`, a recorded summary call) checked; the rest of it as it is: its facts, its methods called on it. */
function checkedSource(source: StepSource): StepSource {
  let calls = 0;
  const named = source.constructor?.name && source.constructor !== Object ? `source (${source.constructor.name})` : 'source';
  const checked = (response: CallRecord | null, method: string): CallRecord | null => {
    if (response === null || response === undefined) return response;
    calls++;
    const issues = callValueIssues(response, `${named}.${method}`);
    if (issues.length > 0) throw new UserError(issues.map((issue) => ({ ...issue, file: FILE, message: `call ${calls}: ${issue.message}`, hint: issue.hint === undefined ? HINT : `${issue.hint}; ${HINT}` })));
    return response;
  };
  // Every fact the source states (sourceFacts.ts: none left behind).
  const wrapped: { -readonly [K in keyof StepSource]: StepSource[K] } = {
    ...sourceFacts(source),
    next: (view, state, request) => checked(source.next(view, state, request), 'next()'),
    exhaustedReason: () => source.exhaustedReason(),
  };
  if (source.exhaustedDetail) wrapped.exhaustedDetail = () => source.exhaustedDetail!();
  if (source.endedBeforeNextCall) wrapped.endedBeforeNextCall = () => source.endedBeforeNextCall!();
  if (source.callsLeft) wrapped.callsLeft = () => source.callsLeft!();
  if (source.refusal) wrapped.refusal = () => source.refusal!();
  if (source.toolSkipped) wrapped.toolSkipped = (index) => source.toolSkipped!(index);
  if (source.recordedSummary) wrapped.recordedSummary = () => checked(source.recordedSummary!(), 'recordedSummary()');
  return wrapped;
}
