/**
 * One live tree two tree tests run (liveStartIds, undatedTree): `main` delegates to `researcher` twice;
 * each researcher asks a `helper`, then echoes until its step limit stops it. Recorded into a list of
 * traces, dated as fileRecorder dates them or not at all (a custom recorder without `dated`).
 */
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineSubagentTool } from '../../src/agent/subagent.js';
import { defineTool } from '../../src/agent/tools.js';
import type { DatingRecorder } from '../../src/agent/treeRecording.js';
import type { TraceRecorder } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { Trace } from '../../src/trace/types.js';
import { answer, ScriptedModel, toolTurn, type Step } from '../agent/scripted.js';
import { MINI } from '../helpers.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const usage = (outputTokens: number) => ({ inputTokens: 1000, outputTokens });
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });
/** Each sub-agent may take 3 steps: a researcher (helper call, then echoes) is stopped, a helper (echo, answer) is not. */
export const limits = { maxSteps: 3 };
/** Two errors alike in a row stop main: what it sees when both researchers stop must differ, as it does live. */
export const brakes = { ...NO_BRAKES, maxSameError: 2 };

/** Records every agent's run into `runs`, a trace per header; dated as fileRecorder dates, or not at all. */
export function listRecorder(runs: Trace[], dated: boolean): TraceRecorder & DatingRecorder {
  let trace: Trace | undefined;
  return {
    ...(dated ? { dated: (header) => ({ ...header, recordedAt: '2025-06-01T12:00:00.000Z' }) } : {}),
    header: (header) => void runs.push((trace = { source: `run-${runs.length}`, header: structuredClone(header), calls: [], end: { type: 'end', outcome: 'unknown' } })),
    call: (record) => void (trace!.calls = [...trace!.calls, structuredClone(record)]),
    end: (end) => void (trace!.end = end),
  };
}

/** The live tree run and its recordings. */
export async function liveResearchTree(options: { dated: boolean }) {
  const clock = new VirtualClock();
  const runs: Trace[] = [];
  const recorder = () => listRecorder(runs, options.dated);
  const sub = (agentId: string, task: string, first: Step[], steps: number, tools: Parameters<typeof runAgentLoop>[0]['tools']) => {
    const script: Step[] = Array.from({ length: steps }, (_, i) => () => (clock.advance(500), toolTurn('echo', { text: `${task} ${i}` }, usage(100))));
    return { agentId, model: new ScriptedModel([...first, ...script, answer(`${task} done`, usage(100))]), tools, context: { system: 'You research.', goal: task }, recorder: recorder() };
  };
  const helper = defineSubagentTool<{ task: string }>({ name: 'helper', description: 'asks a helper', parameters: { type: 'object' }, agent: ({ task }) => sub('helper', task, [], 1, [echo]) });
  const delegate = defineSubagentTool<{ task: string }>({
    name: 'delegate',
    description: 'hands a task to a researcher',
    parameters: { type: 'object' },
    agent: ({ task }) => sub('researcher', task, [toolTurn('helper', { task: `${task}/help` }, usage(100))], 4, [echo, helper]),
  });
  const main = new ScriptedModel([toolTurn('delegate', { task: 'first' }, usage(50)), toolTurn('delegate', { task: 'second' }, usage(50)), answer('done', usage(50))]);
  const run = await runAgentLoop({ model: main, tools: [delegate], brakes, unbounded: true, subagentLimits: limits, context: { system: 's', goal: 'g', countTokens: words }, pricing: MINI, clock, recorder: recorder() });
  return { run, runs };
}
