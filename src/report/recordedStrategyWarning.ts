import { sameContext } from '../context/sameContext.js';
import { isIdentity, parseContextSpec, type ContextStrategy } from '../context/strategy.js';
import { counted } from '../plural.js';
import { rebuildable } from '../replay/rebuiltHistory.js';
import { rebuiltUnder } from '../replay/recordedStrategy.js';
import type { Trace } from '../trace/types.js';
import type { ReportWarning } from './warnings.js';

/** Each stated strategy (its spec) with its runs, in the order of the specs: the same whatever order the runs came in. */
export type StatedStrategies = [spec: string, runs: number][];

/**
 * Counts, run by run, the runs whose recording states the context strategy its loop ran under (header `context`):
 * under a full-history context they replay under it (replay/recordedStrategy.ts recordedStrategyOf). Counts of runs
 * counted apart (a sweep's files, on whichever thread) add up (`addCounted`) to what one tally of them all gives.
 */
export class StatedStrategyTally {
  private readonly runs = new Map<string, number>();

  add(trace: Pick<Trace, 'header'>): void {
    const spec = trace.header.context?.spec;
    if (spec !== undefined) this.runs.set(spec, (this.runs.get(spec) ?? 0) + 1);
  }

  addCounted(stated: StatedStrategies | undefined): void {
    for (const [spec, n] of stated ?? []) this.runs.set(spec, (this.runs.get(spec) ?? 0) + n);
  }

  /** What it counted; absent: no run states one. */
  counted(): StatedStrategies | undefined {
    return this.runs.size === 0 ? undefined : bySpec(this.runs);
  }
}

/** The strategies `traces` state, with their runs (StatedStrategyTally). */
export function statedStrategiesOf(traces: Iterable<Pick<Trace, 'header'>>): StatedStrategies | undefined {
  const tally = new StatedStrategyTally();
  for (const trace of traces) tally.add(trace);
  return tally.counted();
}

function bySpec(strategies: Iterable<readonly [string, number]>): StatedStrategies {
  return [...strategies].map(([spec, n]): [string, number] => [spec, n]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Where the runs replay under their stated strategy: under the context of every figure (the settings line's), or only in a sweep's configurations of full context (`--grid context=…`). */
export type StatedStrategyWhere = 'settings' | 'some configurations';

/**
 * The context the settings line names when every recorded run replays under the strategy its recording states
 * (`ranUnder`: each stated spec with its runs; `recordedRuns`: every run read from a file): `as recorded
 * (window:8 ×1)`; undefined when some run does not (or none does). The one rule both the settings line and the
 * warning read (runNotes.ts RunNotes.recordedContext): where it names them, recordedStrategyWarnings is not given.
 */
export function recordedContextText(ranUnder: ReadonlyMap<string, number> | StatedStrategies | undefined, recordedRuns: number): string | undefined {
  const stated = bySpec(ranUnder ?? []);
  const runs = stated.reduce((sum, [, n]) => sum + n, 0);
  if (runs === 0 || runs !== recordedRuns) return undefined;
  return `as recorded (${stated.map(([spec, n]) => `${spec} ×${n}`).join(', ')})`;
}

/**
 * Recordings of the real loop that state the context strategy it ran under (header `context`), replayed under
 * full context: they replay as their loop ran them, under that strategy (replay/recordedStrategy.ts), not under
 * the context the settings line names. `strategies`: each stated strategy (its spec) with its runs. Every command
 * that replays recordings says it in these words (replay, whatif, sweep, project, check; with --tree too); a sweep
 * whose grid swept the context says where (`where`: only its configurations of full context or of their own).
 * What another --context does with them is said too: a summary strategy's recording is refused (it cannot be
 * rebuilt to full history), any other's is rebuilt (rebuiltStrategyWarnings).
 */
export function recordedStrategyWarnings(strategies: ReadonlyMap<string, number> | StatedStrategies | undefined, where: StatedStrategyWhere = 'settings'): ReportWarning[] {
  const stated = bySpec(strategies ?? []);
  if (stated.length === 0) return [];
  const runs = stated.reduce((sum, [, n]) => sum + n, 0);
  const under =
    where === 'settings'
      ? `not under the context the settings line names; ${anotherContext(stated.map(([spec]) => spec))}`
      : "in the configurations of context full or of their own; in those of the grid's other contexts, their full history rebuilt first";
  return [
    {
      code: 'recorded_strategy',
      message: `${counted(runs, 'run')} recorded by the real loop under a context strategy ${runs === 1 ? 'its recording states' : 'their recordings state'} (${specsText(stated)}) replay as their loop ran them, under that strategy, ${under}`,
    },
  ];
}

/** What another --context does with recordings made under `specs`: rebuilt to full history, or (a summary strategy's) refused. */
function anotherContext(specs: readonly string[]): string {
  const summaries = specs.filter((spec) => !rebuildable(parseContextSpec(spec)));
  if (summaries.length === 0) return 'under another --context they are rebuilt to full history first';
  const which = summaries.length === specs.length ? 'they are' : `those under ${summaries.join(', ')} are`;
  return `under another --context ${which} refused (a summary strategy's recording cannot be rebuilt to full history: to compare strategies, replay the scenario closed loop or record under full history)`;
}

function specsText(stated: StatedStrategies): string {
  return stated.map(([spec, n]) => `${spec} ×${n}`).join(', ');
}

/**
 * Recordings of the real loop that state the context strategy it ran under, replayed under another (not full
 * context): their full history rebuilt first (replay/rebuiltHistory.ts), then that context applied once. What
 * could mislead: the framing of the messages their strategy left out (billed beyond their tokens) was never
 * sent, so the rebuilt prompts may be a few tokens short of what full history would have billed; and their cache
 * is metered by the provider's rule, not as recorded (replay/rebuiltHistory.ts meteredCacheOf).
 * `strategies`: each stated strategy (its spec) with its runs rebuilt; `cacheModes`: the cache modes the runs
 * replay under where the cache is never as recorded (contexts' `--cache-modes`); absent: a command's `--cache`.
 */
export function rebuiltStrategyWarnings(strategies: ReadonlyMap<string, number> | StatedStrategies | undefined, cacheModes?: readonly ('on' | 'off')[]): ReportWarning[] {
  const stated = bySpec(strategies ?? []);
  if (stated.length === 0) return [];
  const runs = stated.reduce((sum, [, n]) => sum + n, 0);
  return [
    {
      code: 'recorded_strategy_rebuilt',
      message: `${counted(runs, 'run')} recorded by the real loop under a context strategy ${runs === 1 ? 'its recording states' : 'their recordings state'} (${specsText(stated)}) ${runs === 1 ? 'is' : 'are'} rebuilt to full history (each recorded prompt with what that strategy left out put back) and replayed under the context named: the left-out messages' framing was never recorded, so those prompts may be a few tokens short; their recorded cache reads were of the prompts that strategy shaped, so ${rebuiltCacheText(cacheModes)}`,
    },
  ];
}

/** What the rebuilt calls read of the cache: under a command's `--cache` (as recorded by default), or under contexts' cache modes (`cacheModes`), which keep no recorded read. */
function rebuiltCacheText(cacheModes: readonly ('on' | 'off')[] | undefined): string {
  const served = "each rebuilt call reads the cache as the provider's rule serves the rebuilt prompts";
  if (cacheModes === undefined) return `with the cache as recorded ${served} (as --cache on meters it; none for a recording that records no cache)`;
  const modes = cacheModes.map((mode) => (mode === 'on' ? `under --cache-modes on ${served}, as every call does` : 'under --cache-modes off no call reads the cache'));
  return `no row keeps them: ${modes.join('; ')}`;
}

/** What the configurations' contexts do with runs' recordings (ConfiguredContextTally): each absent where no run has it. */
export interface ConfiguredContextFacts {
  /** The runs some configuration's context rebuilds to full history (replay/recordedStrategy.ts rebuiltUnder), by their stated strategy. */
  rebuiltStrategies?: StatedStrategies;
  /** The runs every configuration replays as they ran, some under the strategy their recording states (not full context): no context changed them, so no open_loop is said of them (as replay: RunNotes ownStrategy). */
  ownStrategyRuns?: number;
}

/**
 * Counts, run by run, what the configurations' contexts (`contexts`: each read once, distinctContexts) do with the runs whose
 * recording states its strategy, by the one rule replay goes by (replay/recordedStrategy.ts): rebuilt under some
 * (rebuiltUnder), or replayed as it ran under every one and under its own strategy in some (ownStrategy). No
 * context given: nothing counted (facts counted apart are still added up: `addCounted`, in any split).
 */
export class ConfiguredContextTally {
  private readonly rebuilt = new StatedStrategyTally();
  private ownStrategyRuns = 0;
  private readonly given: readonly ContextStrategy[];
  /** One of each given context, and whether one is not full: found at the first run that states its strategy (most runs state none). */
  private read: { contexts: ContextStrategy[]; someNotFull: boolean } | undefined;

  constructor(contexts: Iterable<ContextStrategy> = []) {
    this.given = [...contexts];
  }

  static of(traces: Iterable<Trace>, contexts: Iterable<ContextStrategy>): ConfiguredContextFacts {
    const tally = new ConfiguredContextTally(contexts);
    for (const trace of traces) tally.add(trace);
    return tally.counted();
  }

  add(trace: Trace): void {
    if (trace.header.context === undefined) return;
    const { contexts, someNotFull } = this.contextsRead();
    if (contexts.some((strategy) => rebuiltUnder(trace, strategy))) this.rebuilt.add(trace);
    else if (someNotFull) this.ownStrategyRuns += 1;
  }

  private contextsRead(): { contexts: ContextStrategy[]; someNotFull: boolean } {
    if (this.read === undefined) {
      const contexts = distinctContexts(this.given);
      this.read = { contexts, someNotFull: contexts.some((strategy) => !isIdentity(strategy)) };
    }
    return this.read;
  }

  addCounted(facts: ConfiguredContextFacts | undefined): void {
    this.rebuilt.addCounted(facts?.rebuiltStrategies);
    this.ownStrategyRuns += facts?.ownStrategyRuns ?? 0;
  }

  counted(): ConfiguredContextFacts {
    const rebuilt = this.rebuilt.counted();
    return { ...(rebuilt === undefined ? {} : { rebuiltStrategies: rebuilt }), ...(this.ownStrategyRuns === 0 ? {} : { ownStrategyRuns: this.ownStrategyRuns }) };
  }
}

/** The configurations' contexts, one of each (sameContext: what a recording is replayed as does not depend on the cache): what ConfiguredContextTally reads each run under. */
export function distinctContexts(strategies: Iterable<ContextStrategy>): ContextStrategy[] {
  const distinct: ContextStrategy[] = [];
  for (const strategy of strategies) if (!distinct.some((known) => sameContext(known, strategy))) distinct.push(strategy);
  return distinct;
}
