/**
 * The library's user errors speak library (review, task P): an entry point names its own options
 * (`<runScenario options>` field `model`), never a CLI flag (`--model`, `--prices`, `--context`) — the CLI
 * passes its flags' names to the same rule; a missing trace, runs, tree or scenario is a UserError saying
 * what was expected, not a TypeError; a trace given to loadScenarioFile is said to be one. One name per
 * concept: per-agent limits are `subagentLimits` at every entry point (`subagent` still accepted, deprecated),
 * and a live tree's totals say `costPico` as replayTree's do (`spentPico` kept beside it, deprecated).
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY, parseContextSpec } from '../../src/context/strategy.js';
import { COMMAND_LINE_PRICE_OPTIONS, loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { loadAnyScenarioFile, loadScenarioFile, parseScenario } from '../../src/scenario/load.js';
import { runScenario, scenarioRuns } from '../../src/scenario/run.js';
import type { AgentRef, Trace } from '../../src/trace/types.js';
import { sessionTrees } from '../../src/tree/group.js';
import { runAgentTree, type LiveAgent } from '../../src/tree/live.js';
import { replayTree, replayTrees, treeReplayer } from '../../src/tree/replayTree.js';
import { answer, ScriptedModel, toolTurn } from '../agent/scripted.js';
import { delegateOnce } from '../agent/delegation.js';
import { tinyHealthyScenarioText } from '../synthetic/tinyScenario.js';
import { call, distinctSteps, MINI, MINI_TABLE, toolCall, trace, userErrorOf } from '../helpers.js';

const SCENARIO = parseScenario(tinyHealthyScenarioText({ name: 'tiny', steps: 3, outputTokens: 20, toolResultTokens: 100 }).replace('model: tiny', 'model: mini'), 'mini.yaml');
const RUN = trace(distinctSteps(4), { model: 'mini' });
const SUMMARY_OF_UNKNOWN = parseContextSpec('summary:trigger=1000,keep=2,tokens=100,model=gpt-9');
const places = (error: { issues: { file?: string; field?: string }[] }) => error.issues.map((issue) => [issue.file, issue.field]);

/** main starts `sub` from its Task call T1; sub makes three steps. */
function treeRuns(): Trace[] {
  const placed = (run: Trace, agent: AgentRef, source: string): Trace => ({ ...run, source, header: { ...run.header, agent } });
  const main = placed(trace([call(50, [toolCall('Task', {}, 100, { id: 'T1' })]), call(50)], { model: 'mini' }), { sessionId: 's', agentId: 'main', kind: 'main' }, 's#main');
  const sub = placed(trace(distinctSteps(3), { model: 'mini' }), { sessionId: 's', agentId: 'sub', kind: 'subagent', parentAgentId: 'main', parentToolCallId: 'T1' }, 's#sub');
  return [main, sub];
}

describe("a library entry point names its own options, not the CLI's flags", () => {
  it('an unknown model to re-price as: the entry point\'s `model` option', () => {
    expect(places(userErrorOf(() => runScenario(SCENARIO, { prices: MINI_TABLE, model: 'gpt-9', runs: 1 })))).toEqual([['<runScenario options>', 'model']]);
    expect(places(userErrorOf(() => [...scenarioRuns(SCENARIO, { prices: MINI_TABLE, model: 'gpt-9', runs: 1 }, false)]))).toEqual([['<scenarioRuns options>', 'model']]);
    expect(places(userErrorOf(() => replayTrace(RUN, { brakes: {}, strategy: FULL_HISTORY, prices: MINI_TABLE, model: 'gpt-9' })))).toEqual([['<replayTrace options>', 'model']]);
    expect(places(userErrorOf(() => replayTree(treeRuns(), { brakes: {}, strategy: FULL_HISTORY, prices: MINI_TABLE, model: 'gpt-9' })))).toEqual([['<replayTree options>', 'model']]);
    expect(userErrorOf(() => runScenario(SCENARIO, { prices: MINI_TABLE, model: 'gpt-9', runs: 1 })).message).not.toContain('--model');
  });

  it("a summary model no table prices: the entry point's `strategy` option, unless the caller names the place (the CLI: --context)", () => {
    const options = { brakes: {}, strategy: SUMMARY_OF_UNKNOWN, prices: MINI_TABLE };
    expect(places(userErrorOf(() => replayTrace(RUN, options)))).toEqual([['<replayTrace options>', 'strategy']]);
    expect(places(userErrorOf(() => runScenario(SCENARIO, { ...options, runs: 1 })))).toEqual([['<runScenario options>', 'strategy']]);
    expect(places(userErrorOf(() => treeReplayer(sessionTrees(treeRuns()).trees[0]!, { strategy: SUMMARY_OF_UNKNOWN, prices: MINI_TABLE })({})))).toEqual([['<treeReplayer options>', 'strategy']]);
    const cli = { file: '<command line>', field: '--context' };
    expect(places(userErrorOf(() => replayTrace(RUN, { ...options, strategyPlace: cli })))).toEqual([['<command line>', '--context']]);
    expect(places(userErrorOf(() => replayTree(treeRuns(), { ...options, strategyPlace: cli })))).toEqual([['<command line>', '--context']]);
  });

  it("loadPriceTable: a path that is not there, or dates with a price file, said in its options' names; the CLI's flags when it passes them", () => {
    expect(userErrorOf(() => loadPriceTable({ pricesFile: '/nope.json' })).message).toBe('/nope.json: no such file or directory (check the path given to pricesFile)');
    expect(userErrorOf(() => loadPriceTable({ overridesFile: '/nope.json' })).issues[0]!.hint).toBe('check the path given to overridesFile');
    const dated = userErrorOf(() => loadPriceTable({ pricesFile: '/nope.json', asOf: new Date(0) }));
    expect(places(dated)).toEqual([['<loadPriceTable options>', 'asOf']]);
    expect(dated.message).not.toMatch(/--prices/);
    // One rule, the caller's words: the CLI passes its flags' names.
    expect(userErrorOf(() => loadPriceTable({ pricesFile: '/nope.json', optionNames: COMMAND_LINE_PRICE_OPTIONS })).issues[0]!.hint).toBe('check the path given to --prices');
    expect(places(userErrorOf(() => loadPriceTable({ pricesFile: '/nope.json', asOf: new Date(0), optionNames: COMMAND_LINE_PRICE_OPTIONS })))).toEqual([['<command line>', '--prices-as-of']]);
  });
});

describe('a missing trace, runs, tree or scenario is a UserError saying what was expected', () => {
  const options = { brakes: {}, strategy: FULL_HISTORY, prices: MINI_TABLE };
  const refusal = (fn: () => unknown) => {
    const issue = userErrorOf(fn).issues[0]!;
    return [issue.file, issue.field, issue.code];
  };

  it('replayTrace(undefined), as `const [trace] = await loadTraceFile(empty)` gives it', () => {
    const error = userErrorOf(() => replayTrace(undefined as unknown as Trace, options));
    expect(error.message).toMatch(/^<replayTrace arguments> field 'trace': is missing: replayTrace takes a Trace/);
    expect(error.message).toContain('loadTraceFile returns an array');
    expect(refusal(() => replayTrace({} as Trace, options))).toEqual(['<replayTrace arguments>', 'trace', 'invalid_input']);
  });

  it('the tree entry points: no runs, a missing run among them, no tree', () => {
    expect(refusal(() => replayTree(undefined as unknown as Trace[], options))).toEqual(['<replayTree arguments>', 'traces', 'missing_input']);
    expect(refusal(() => replayTree([treeRuns()[0]!, undefined as unknown as Trace], options))).toEqual(['<replayTree arguments>', 'traces[1]', 'missing_input']);
    expect(refusal(() => replayTrees(undefined as unknown as Trace[], options))).toEqual(['<replayTrees arguments>', 'traces', 'missing_input']);
    expect(refusal(() => treeReplayer(undefined as never, { strategy: FULL_HISTORY, prices: MINI_TABLE }))).toEqual(['<treeReplayer arguments>', 'tree', 'missing_input']);
  });

  it('runScenario and scenarioRuns without a scenario', () => {
    expect(refusal(() => runScenario(undefined as never, { prices: MINI_TABLE }))).toEqual(['<runScenario arguments>', 'scenario', 'missing_input']);
    expect(refusal(() => [...scenarioRuns(undefined as never, { prices: MINI_TABLE }, false)])).toEqual(['<scenarioRuns arguments>', 'scenario', 'missing_input']);
  });

  it('loadScenarioFile of a JSONL trace says it is a trace, before any YAML error', () => {
    for (const load of [loadScenarioFile, loadAnyScenarioFile]) {
      const error = userErrorOf(() => load('scenarios/long-exploration.jsonl'));
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]!.code).toBe('trace_input');
      expect(error.message).toMatch(/^scenarios\/long-exploration\.jsonl: is a native JSONL trace, not a scenario file: replay it with replayTrace/);
      expect(error.message).not.toMatch(/not valid YAML/);
    }
    // A scenario file still loads.
    expect(loadScenarioFile('scenarios/flight-search.yaml').population.length).toBeGreaterThan(0);
  });
});

describe('one name per concept: subagentLimits, costPico', () => {
  const options = { brakes: {}, strategy: FULL_HISTORY, prices: MINI_TABLE };

  it('replayTree, replayTrees and treeReplayer take subagentLimits (as runAgentLoop does); subagent, deprecated, alike; not both', () => {
    const limited = replayTree(treeRuns(), { ...options, subagentLimits: { maxSteps: 1 } });
    expect(limited.stopped.map((stop) => [stop.agentId, stop.reason])).toEqual([['sub', 'max_steps']]);
    expect(replayTree(treeRuns(), { ...options, subagent: { maxSteps: 1 } })).toEqual(limited);
    expect(replayTrees(treeRuns(), { ...options, subagentLimits: { maxSteps: 1 } }).trees[0]).toEqual(limited);
    expect(treeReplayer(sessionTrees(treeRuns()).trees[0]!, { strategy: FULL_HISTORY, prices: MINI_TABLE, subagentLimits: { maxSteps: 1 } })({})).toEqual(limited);
    const both = userErrorOf(() => replayTree(treeRuns(), { ...options, subagentLimits: { maxSteps: 1 }, subagent: { maxSteps: 1 } }));
    expect(both.issues.map((issue) => [issue.field, issue.code])).toEqual([['subagent', 'conflicting_options']]);
    expect(places(userErrorOf(() => replayTree(treeRuns(), { ...options, subagentLimits: { maxSteps: 0 } })))).toEqual([['<replayTree options>', 'subagentLimits.maxSteps']]);
  });

  it('runAgentTree takes subagentLimits too', () => {
    const worker = (): LiveAgent => {
      const calls = distinctSteps(3);
      let i = 0;
      return { agentId: 'worker', source: { next: () => calls[i++] ?? null, exhaustedReason: () => 'completed' }, systemTokens: 10, goalTokens: 10 };
    };
    const parent = (): LiveAgent => {
      const calls = [call(50, [toolCall('Task', {}, 100, { id: 'T1' })]), call(50)];
      let i = 0;
      return { agentId: 'main', source: { next: () => calls[i++] ?? null, exhaustedReason: () => 'completed' }, systemTokens: 10, goalTokens: 10, subagentFor: (tool) => (tool.name === 'Task' ? worker() : undefined) };
    };
    const live = { strategy: FULL_HISTORY, cache: 'off' as const, pricing: MINI, brakes: NO_BRAKES };
    const limited = runAgentTree(parent(), { ...live, subagentLimits: { maxSteps: 1 } });
    expect(limited.stopped.map((stop) => [stop.agentId, stop.reason])).toEqual([['worker', 'max_steps']]);
    expect(runAgentTree(parent(), { ...live, subagent: { maxSteps: 1 } })).toEqual(limited);
    expect(userErrorOf(() => runAgentTree(parent(), { ...live, subagentLimits: { maxSteps: 1 }, subagent: { maxSteps: 2 } })).issues[0]!.code).toBe('conflicting_options');
  });

  it("runAgentLoop's tree totals say costPico, as replayTree's do (spentPico kept beside it, the same figure)", async () => {
    const researcher = new ScriptedModel([toolTurn('echo', { text: 'a' }, { inputTokens: 1000, outputTokens: 100 }), answer('found it', { inputTokens: 1000, outputTokens: 100 })]);
    const run = await delegateOnce(researcher).run;
    const totals = run.tree!.totals;
    expect(totals.costPico).toBeGreaterThan(run.costPico);
    expect(totals.spentPico).toBe(totals.costPico);
    expect(Object.keys(totals)).toEqual(['costPico', 'steps', 'elapsedMs', 'tokensUsed', 'spentPico']);
  });
});
