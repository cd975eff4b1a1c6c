/**
 * Runs that answered without doing their task, by their ground truth (`header.synthetic.taskDone` false on
 * a run that completed: the retrier that gives up, docs/scenarios.md). Fitted with the runs that did their
 * task, as one `healthy` group, they became runs that did it, and their failures were spread over every
 * healthy run: traces generated from 85 healthy runs in 100 (5% of their tool calls failing) and 15
 * retriers giving up after 40 attempts fitted a 'completed' group whose every run did its task (a sweep of
 * the profile: 2,000 of 2,000 tasks done with no brakes, the source 1,686) with errorShare 0.503. Such runs
 * are their own group, fitted as a `retrier` that gives up (the behaviour of the scenario vocabulary that
 * answers without doing its task): `leadSteps` ordinary steps, `givesUpAfter` failing attempts at the tool
 * the runs retried with its most common error, then an answer. Runs with no ground truth (recordings) are
 * grouped as before. Pure.
 */
import type { CallRecord } from '../trace/types.js';
import type { Distribution } from '../synthetic/distributions.js';
import { empiricalOf, quantile } from '../synthetic/distributions.js';
import { counted } from '../plural.js';
import type { RunFacts } from './fitFacts.js';
import { meanKeepingEmpirical } from './fitSummary.js';
import { tally } from './fitPooling.js';
import { toolSharesNote } from './fitToolShares.js';

/** The group of runs that completed without doing their task, by their ground truth. */
export const GAVE_UP_GROUP = 'completed: task not done';

/** A run's failing tool calls right before its answer: the attempts of a retrier that gave up. */
export interface FinalFailures {
  /** Calls in a row before the last whose every tool call failed (0 when the call before the last succeeded). */
  attempts: number;
  /** The tools and errors of those calls' tool calls, in order. */
  tools: string[];
  errors: string[];
}

/** The failing calls in a row before a run's last call (its answer), counted back from it. */
export function finalFailuresOf(calls: readonly CallRecord[]): FinalFailures {
  const tools: string[] = [];
  const errors: string[] = [];
  let attempts = 0;
  for (let i = calls.length - 2; i >= 0; i--) {
    const toolCalls = calls[i]!.toolCalls ?? [];
    if (calls[i]!.failed || toolCalls.length === 0 || toolCalls.some((t) => !t.error)) break;
    attempts += 1;
    for (const t of toolCalls) {
      tools.push(t.name);
      errors.push(t.error!);
    }
  }
  return { attempts, tools, errors };
}

/** A completed run that its ground truth says did not do its task (false for runs with none: recordings). */
export const gaveUp = (f: RunFacts): boolean => f.completed && f.taskDone === false;

/** The retrier entry of the runs that gave up: what it draws and how, from the group's own runs. */
export interface GaveUpEntry {
  behaviour: 'retrier';
  name: string;
  weight: number;
  tool?: string;
  error?: string;
  leadSteps: Distribution;
  givesUpAfter: number;
  outputTokens: Distribution;
  toolResultTokens: Distribution;
}

/** The attempts a fitted retrier makes before it gives up: the median of the runs' failing calls before their answer (at least 1). */
function givesUpAfterOf(group: readonly RunFacts[]): number {
  const attempts = group.map((f) => f.finalFailures.attempts).sort((a, b) => a - b);
  return Math.max(1, Math.round(quantile(attempts, 0.5)));
}

/**
 * The group's retrier: it gives up after the median number of attempts, and its lead (ordinary steps before
 * the attempts) is each run's steps less those attempts and the answer, so that its steps are the runs' own
 * (a run with fewer steps than the attempts and the answer takes no lead). Sizes are the group's own runs'.
 */
export function gaveUpEntry(group: readonly RunFacts[]): GaveUpEntry {
  const givesUpAfter = givesUpAfterOf(group);
  const tools = group.flatMap((f) => f.finalFailures.tools);
  const errors = group.flatMap((f) => f.finalFailures.errors);
  const results = group.flatMap((f) => f.resultTokens);
  return {
    behaviour: 'retrier',
    name: GAVE_UP_GROUP,
    weight: group.length,
    ...(tools.length === 0 ? {} : { tool: tally(tools)[0]![0] }),
    ...(errors.length === 0 ? {} : { error: tally(errors)[0]![0] }),
    leadSteps: empiricalOf(group.map((f) => Math.max(0, f.steps - 1 - givesUpAfter))),
    givesUpAfter,
    outputTokens: meanKeepingEmpirical(group.flatMap((f) => f.outputTokens), 1, 41),
    toolResultTokens: results.length === 0 ? { kind: 'fixed', value: 0 } : meanKeepingEmpirical(results, 1, 41),
  };
}

/** The profile's comment line of the runs that gave up ('' when none did), beside `otherCompletedRuns` that did their task. */
export function gaveUpNote(group: readonly RunFacts[], otherCompletedRuns: number): string {
  if (group.length === 0) return '';
  const attempts = group.map((f) => f.finalFailures.attempts).sort((a, b) => a - b);
  const { tool, error, givesUpAfter } = gaveUpEntry(group);
  const range = attempts[0] === attempts.at(-1) ? `${attempts[0]}` : `${attempts[0]} to ${attempts.at(-1)}, median ${givesUpAfter}`;
  const at = tool === undefined ? '' : ` at ${tool}${error === undefined ? '' : ` (${JSON.stringify(error)})`}`;
  return (
    `${counted(group.length, 'run')} completed without doing ${group.length === 1 ? 'its' : 'their'} task, by ${group.length === 1 ? 'its' : 'their'} ground truth (header.synthetic.taskDone false): ` +
    `the group '${GAVE_UP_GROUP}' is a retrier that gives up (its runs answer without doing the task, as these did): ${givesUpAfter} failing attempts${at} ` +
    `(the runs' failing calls before their answer: ${range}), after leadSteps ordinary steps, each run's steps less the attempts and the answer; sizes of its own runs.` +
    (otherCompletedRuns === 0 ? '' : ' The other completed runs did their task and are fitted apart from these (their failures are their own).')
  );
}

type NamedGroup = readonly [name: string, runs: readonly RunFacts[], ...rest: unknown[]];

/**
 * The tool-call shares' line (fitToolShares.ts) over the groups that draw them: the retrier that gives up
 * draws none (its calls are its leadSteps and its failing attempts), so its runs are left out, and said so.
 */
export function fittedToolSharesNote(groups: readonly NamedGroup[]): string {
  const gaveUpRuns = groups.find(([name]) => name === GAVE_UP_GROUP)?.[1].length ?? 0;
  const drawing = groups.filter(([name]) => name !== GAVE_UP_GROUP);
  const apart = `the '${GAVE_UP_GROUP}' group's ${counted(gaveUpRuns, 'run')} draw${gaveUpRuns === 1 ? 's' : ''} no tool-call shares (a retrier: its calls are its leadSteps and its failing attempts)`;
  if (gaveUpRuns === 0) return toolSharesNote(drawing);
  if (drawing.every(([, runs]) => runs.length === 0)) return `Tool calls: ${apart}.`;
  return `${toolSharesNote(drawing)} Left out: ${apart}.`;
}

/**
 * Runs the profile cannot give their task done: unfinished runs whose ground truth says the task was done (an
 * agent that answered, then kept asking, cut off at its hard cap), fitted as unfinished healthy runs, whose
 * task is not done. '' when none.
 */
export function doneUnfinishedNote(facts: readonly RunFacts[]): string {
  const runs = truthRunsOf(facts).doneUnfinished;
  return runs === 0 ? '' : `${doneUnfinishedText(runs, "the profile's tasks-done share")}.`;
}

/** The runs whose ground truth fit keeps apart: completed without doing their task (gaveUp), unfinished having done it. */
export interface TruthRuns {
  gaveUp: number;
  doneUnfinished: number;
}

export function truthRunsOf(facts: readonly RunFacts[]): TruthRuns {
  return { gaveUp: facts.filter(gaveUp).length, doneUnfinished: facts.filter((f) => !f.completed && f.taskDone === true).length };
}

/** What `runs` (> 0) unfinished runs that did their task do to `share` (the profile's, the synthetic runs'). */
export function doneUnfinishedText(runs: number, share: string): string {
  const its = runs === 1 ? 'its' : 'their';
  return `${counted(runs, 'unfinished run')} that did ${its} task by ${its} ground truth (then went on until cut) ${runs === 1 ? 'is' : 'are'} fitted unfinished, ${its} task not done: ${share} is short by ${runs === 1 ? 'it' : 'them'}`;
}
