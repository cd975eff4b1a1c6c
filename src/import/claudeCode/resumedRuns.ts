/**
 * A sub-agent's calls by the tool call that started each run of it. Claude Code can continue a sub-agent in
 * the same `agent-<id>.jsonl` (`Task({resume: id})`, later `SendMessage`): each such call adds a prompt to
 * the sub-agent's transcript and runs it again, so the transcript's user turns are its runs, and each is tied
 * to the call that started or resumed it — the latest such call made before the turn's first call (when
 * every call and turn is dated), else the calls in order, turn by turn. A run whose calls end mid-turn is
 * cut there (`ended mid-turn`), so that every part of the agent is one call's run (agentRuns cuts the rest).
 *
 * A Task result's `toolUseResult.usage` is the billed usage of the final response of the run its call
 * started: where it names one call of that run unambiguously (the one call with its prompt usage) and
 * reports more output than the transcript logged (Claude Code logs a response's usage before its stream
 * ends), its output is the call's, with a note.
 */
import { basename } from 'node:path';
import { isTurnEnd, splitAgentCalls, type AgentCall } from '../common/agentRuns.js';
import type { CallRecord, Trace } from '../../trace/types.js';
import type { ReportedUsage, SubagentLink, TranscriptCall } from './transcriptTypes.js';

/** One run of a sub-agent: its calls, and the tool call that started or resumed it (none: unlinked). */
export interface LinkedRun {
  link: SubagentLink | undefined;
  calls: TranscriptCall[];
}

/** The calls by user turn, in order (a turn's calls are consecutive: turns only grow). */
function byTurn(calls: readonly TranscriptCall[]): TranscriptCall[][] {
  const turns: TranscriptCall[][] = [];
  for (const call of calls) {
    const last = turns[turns.length - 1];
    if (last && last[0]!.turn === call.turn) last.push(call);
    else turns.push([call]);
  }
  return turns;
}

/** The latest of `links` made at or before `atMs`; the first when none was. */
function latestBefore(links: readonly SubagentLink[], atMs: number): SubagentLink {
  let found = links[0]!;
  for (const link of links) if (link.atMs! <= atMs) found = link;
  return found;
}

/** The sub-agent's runs, each with the tool call that started or resumed it (see the module comment). */
export function runsByLink(calls: readonly TranscriptCall[], links: readonly SubagentLink[]): LinkedRun[] {
  if (links.length <= 1) return [{ link: links[0], calls: [...calls] }];
  const turns = byTurn(calls);
  const dated = links.every((link) => link.atMs !== undefined) && turns.every((turn) => turn[0]!.startedAtMs !== undefined);
  const runs: LinkedRun[] = [];
  turns.forEach((turn, i) => {
    const link = dated ? latestBefore(links, turn[0]!.startedAtMs!) : links[Math.min(i, links.length - 1)]!;
    const last = runs[runs.length - 1];
    if (last && last.link === link) last.calls.push(...turn);
    else runs.push({ link, calls: [...turn] });
  });
  return runs;
}

/** The runs' calls in order, a run that ends mid-turn cut there (its last call `ended mid-turn`) so that no part spans two runs. */
export function cutBetweenRuns(runs: LinkedRun[]): LinkedRun[] {
  return runs.map((run, i) => {
    const last = run.calls[run.calls.length - 1];
    if (i === runs.length - 1 || last === undefined || isTurnEnd(last.record) || last.endStatus !== undefined) return run;
    return { ...run, calls: [...run.calls.slice(0, -1), { ...last, endStatus: 'ended mid-turn' }] };
  });
}

/** Each part of the agent (agentRuns over the runs' calls) tied to its run's tool call: `parentToolCallId`, `background`. */
export function tieParts(parts: Trace[], runs: readonly LinkedRun[]): void {
  const runOf = new Map<AgentCall, LinkedRun>();
  for (const run of runs) for (const call of run.calls) runOf.set(call, run);
  splitAgentCalls(runs.flatMap((run) => run.calls)).forEach((calls, i) => {
    const agent = parts[i]?.header.agent;
    const link = runOf.get(calls[0]!)?.link;
    if (agent === undefined) return;
    if (link === undefined) delete agent.parentToolCallId;
    else agent.parentToolCallId = link.toolUseId;
    if (link?.background === true) agent.background = true;
    else delete agent.background;
  });
}

function samePrompt(record: CallRecord, usage: ReportedUsage): boolean {
  const writes = (record.cacheWriteTokens ?? 0) + (record.cacheWrite1hTokens ?? 0);
  return record.inputTokens === usage.input + usage.cacheWrite + usage.cacheRead && (record.cachedInputTokens ?? 0) === usage.cacheRead && writes === usage.cacheWrite;
}

/**
 * The run with its final response's output as its Task result reports it (`toolUseResult.usage`, line
 * `reported.line` of `holder`), when that usage names one call of the run and reports more output; and
 * the note saying what was used, or why the transcript's figure is kept.
 */
export function withReportedOutput(run: LinkedRun, holder: string): { run: LinkedRun; note?: string } {
  const reported = run.link?.reported;
  if (reported === undefined) return { run };
  const said = `the Task result of tool call ${run.link!.toolUseId} (${basename(holder)} line ${reported.line}, toolUseResult.usage) reports ${reported.output} output tokens for the final response of the run that call started`;
  const matches = run.calls.filter((call) => !call.record.failed && !call.record.compaction && samePrompt(call.record, reported));
  const last = [...run.calls].reverse().find((call) => !call.record.failed);
  if (matches.length !== 1) {
    if (last === undefined || reported.output <= last.record.outputTokens) return { run };
    const why = matches.length === 0 ? 'no call of that run has its prompt usage' : `${matches.length} calls of that run have its prompt usage`;
    return { run, note: `${said}, its transcript ${last.record.outputTokens} for its last call: ${why}, so the transcript's figure is kept (a lower bound)` };
  }
  const call = matches[0]!;
  if (reported.output <= call.record.outputTokens) return { run };
  const used: TranscriptCall = { ...call, record: { ...call.record, outputTokens: reported.output } };
  const line = call.modelLine === undefined ? '' : `, line ${call.modelLine}`;
  return {
    run: { ...run, calls: run.calls.map((c) => (c === call ? used : c)) },
    note: `${said}, its transcript ${call.record.outputTokens} (Claude Code logs a response's usage before its stream ends): the Task result's figure is used, as the billed output of the one call of that run with its prompt usage (${reported.input} input, ${reported.cacheWrite} cache-write and ${reported.cacheRead} cache-read tokens${line})`,
  };
}
