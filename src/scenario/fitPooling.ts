/**
 * Which recorded runs `fit` profiles, and what its profile cannot be of them, said as warnings (in the
 * report, on stderr without one, and in the profile's comments):
 *   - a session's sub-agents are other agents (their own prompts, tasks and often models): when runs of a
 *     main agent are there, sub-agent runs (`header.agent.kind`) are left out, and the count said;
 *   - runs of several models, or of several agents (read from several agents' logs), pooled into one
 *     profile of one model: each model with its runs, and the model the profile is of;
 *   - runs that compacted their context (recorded compaction calls) fitted as a profile that never
 *     summarises: its prompts grow past any the runs sent. The recordings give the prompt a compaction was
 *     made at, not what the agent kept nor how long its summary was, so the summary strategy is not
 *     fitted: the warning names the recorded prompts and the field to edit.
 */
import type { ReportWarning } from '../report/warnings.js';
import type { Trace } from '../trace/types.js';
import { counted } from '../plural.js';

/** Each value with how many times it occurs, most common first (ties by name). */
export function tally(values: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

const isSubagentRun = (trace: Trace) => trace.header.agent?.kind === 'subagent';

/** The runs fit profiles: sub-agent runs left out when any run is a main agent's (all kept when none is). */
export function profiledRuns<T>(items: readonly T[], traceOf: (item: T) => Trace): { profiled: T[]; subagentRunsLeftOut: number } {
  const main = items.filter((item) => !isSubagentRun(traceOf(item)));
  if (main.length === 0) return { profiled: [...items], subagentRunsLeftOut: 0 };
  return { profiled: main, subagentRunsLeftOut: items.length - main.length };
}

/** The one line saying sub-agent runs were left out ('' when none was). */
export function subagentsLeftOutLine(leftOut: number): string {
  if (leftOut === 0) return '';
  return `${counted(leftOut, 'sub-agent run')} left out: fit profiles the main agent (a session's sub-agents are other agents, with their own prompts, tasks and models); fit a sub-agent's transcripts on their own for a profile of it.`;
}

const withRuns = (counts: readonly [string, number][]) => counts.map(([name, n]) => `${name} (${counted(n, 'run')})`).join(', ');

/** The agent whose log a run was read from: its format, a sub-agent's marked (a loopcost trace: `loopcost`). */
function agentOf(trace: Trace): string {
  const format = trace.header.importedFrom?.format ?? 'loopcost';
  return isSubagentRun(trace) ? `${format} sub-agent` : format;
}

/** Runs of several models, or of several agents, pooled into one profile of `model`. */
export function poolingWarnings(traces: readonly Trace[], model: string): ReportWarning[] {
  const warnings: ReportWarning[] = [];
  const models = tally(traces.map((t) => t.header.model));
  if (models.length > 1) {
    warnings.push({
      code: 'fit_several_models',
      message:
        `runs of ${models.length} models pooled: ${withRuns(models)}; the profile is of ${model}, the most common: every synthetic run is priced, and held to the context window, as ${model}, ` +
        `with the steps and token sizes of all of them; fit each model's runs on their own for a profile of each`,
    });
  }
  const agents = tally(traces.map(agentOf));
  if (agents.length > 1) {
    warnings.push({
      code: 'fit_several_agents',
      message: `runs of ${agents.length} agents pooled: ${withRuns(agents)}; one profile of their steps and token sizes together is of none of them: fit each agent's runs on their own`,
    });
  }
  return warnings;
}

const tokens = (n: number) => n.toLocaleString('en-US');

/** Recorded runs that compacted their context, fitted as a profile whose `context` never summarises. */
export function compactionWarnings(traces: readonly Trace[], context: string): ReportWarning[] {
  if (/^(summary|hybrid):/.test(context)) return [];
  const compactions = traces.map((t) => t.calls.filter((c) => c.compaction));
  const compacted = compactions.filter((calls) => calls.length > 0).length;
  if (compacted === 0) return [];
  const calls = compactions.flat();
  const prompts = calls.flatMap((c) => (c.failed || c.inputTokens === undefined ? [] : [c.inputTokens])).sort((a, b) => a - b);
  const at = prompts.length === 0 ? '' : `, at prompts of ${prompts.length === 1 ? tokens(prompts[0]!) : `${tokens(prompts[0]!)}–${tokens(prompts.at(-1)!)}`} tokens`;
  const trigger = prompts.length === 0 ? 'T' : String(prompts[0]);
  return [
    {
      code: 'fit_recorded_compaction',
      message:
        `${compacted} of ${counted(traces.length, 'recorded run')} compacted their context (${counted(calls.length, 'compaction call')}${at}), but the profile's context is ${context}, which never summarises: ` +
        `its synthetic prompts keep growing where these runs' were cut back, so its long runs send longer prompts and cost more than theirs did; ` +
        `set the profile's context.context to a summary strategy (docs/scenarios.md), e.g. summary:trigger=${trigger},keep=K,tokens=S, ` +
        `K the steps your agent keeps and S its summary's tokens (fit does not fit them: a recording gives the prompt a compaction was made at, not what it kept)`,
    },
  ];
}
