import type { NumberFlagRule, NumberLimit } from '../flags/numberFlags.js';
import { checkArguments, objectArgumentIssue } from '../options/arguments.js';
import { numberIssue } from '../options/numberArguments.js';
import { madeValid } from '../options/traceValues.js';
import { modelNameIssue, unknownKeyIssues, type Issue, type ListsEvery } from '../options/rules.js';
import type { CallRecord, Trace } from '../trace/types.js';
import { TRACE_SCHEMA } from '../trace/types.js';

export interface ConstantStepsSpec {
  model: string;
  systemTokens: number;
  goalTokens?: number;
  /** Output tokens of every call. */
  outputTokens: number;
  /** Tokens of the one tool result every step adds. */
  toolTokens: number;
  steps: number;
  /** Virtual latency of each model call. */
  latencyMs?: number;
}

/** Most steps a curve draws (`curve --steps`, and a spec given to the library): each is a row of its report (a million took ~600 MB). */
export const MAX_CURVE_STEPS = 100_000;
export const CURVE_STEPS_LIMIT: NumberLimit = { max: MAX_CURVE_STEPS, why: 'the most steps a curve draws (each step is a row of its report)' };

/** Each number of a spec by the rule of its `curve` flag (--system-tokens … --steps: cli/actions/curve.ts); latencyMs, a call's milliseconds. */
const SPEC_NUMBERS: Record<Exclude<keyof ConstantStepsSpec, 'model'>, NumberFlagRule & { optional?: boolean }> = {
  systemTokens: { whole: true, zero: true },
  goalTokens: { whole: true, zero: true, optional: true },
  outputTokens: { whole: true, zero: true },
  toolTokens: { whole: true, zero: true },
  steps: { whole: true, limit: CURVE_STEPS_LIMIT },
  latencyMs: { zero: true, unit: 'milliseconds', optional: true },
};
const SPEC_KEYS = ['model', ...(Object.keys(SPEC_NUMBERS) as (keyof typeof SPEC_NUMBERS)[])] as const;
const SPEC_KEYS_COMPLETE: ListsEvery<ConstantStepsSpec, typeof SPEC_KEYS> = true;
void SPEC_KEYS_COMPLETE;
const SPEC_HINT = "{ model: 'gpt-4o', systemTokens: 500, outputTokens: 150, toolTokens: 2050, steps: 20 } (goalTokens and latencyMs may be left out)";

/**
 * A constant-step loop's spec as a library caller gives it (curveRun, growthCurve, compareCurves,
 * constantStepsTrace), checked once before any step is made, by the rules its `curve` flags are read by
 * (flags/numberFlags.ts): `<curveRun arguments>` field `spec.systemTokens`.
 */
export function requireConstantStepsSpec(entry: string, spec: unknown): void {
  checkArguments(entry, (issue) => specIssues(issue, spec));
}

function specIssues(issue: Issue, spec: unknown): void {
  if (!objectArgumentIssue(issue, spec, { field: 'spec', hint: SPEC_HINT })) return;
  unknownKeyIssues(issue, 'spec', spec, SPEC_KEYS, 'spec field');
  modelNameIssue(issue, 'spec.model', spec.model, true);
  for (const [key, rule] of Object.entries(SPEC_NUMBERS)) {
    numberIssue(issue, spec[key], { field: `spec.${key}`, hint: rule.optional === true ? 'leave it out for 0' : SPEC_HINT, number: rule, optional: rule.optional === true });
  }
}

/**
 * The growth model as a synthetic trace: every step emits `outputTokens` and one tool call whose result
 * adds `toolTokens`; each action is distinct, and the last step answers. `entry`: the entry point whose
 * `spec` argument a refusal names (curveRun passes its own).
 */
export function constantStepsTrace(spec: ConstantStepsSpec, entry = 'constantStepsTrace'): Trace {
  requireConstantStepsSpec(entry, spec);
  const calls: CallRecord[] = [];
  for (let i = 1; i <= spec.steps; i++) {
    const call: CallRecord = { type: 'call', outputTokens: spec.outputTokens };
    if (spec.latencyMs !== undefined) call.latencyMs = spec.latencyMs;
    if (i < spec.steps) call.toolCalls = [{ name: 'tool', arguments: { step: i }, resultTokens: spec.toolTokens }];
    else call.final = true;
    calls.push(call);
  }
  // Valid by construction once its spec is: a replay does not check its values again.
  return madeValid({
    source: 'curve',
    header: {
      type: 'header',
      schema: TRACE_SCHEMA,
      model: spec.model,
      systemTokens: spec.systemTokens,
      goalTokens: spec.goalTokens ?? 0,
      origin: 'synthetic',
    },
    calls,
    end: { type: 'end', outcome: 'completed' },
  });
}
