/**
 * `fit`: a scenario whose population reproduces recorded runs. From what each run tells (fitFacts.ts)
 * come
 *   - steps to the end, separately for runs that completed and runs that did not (empirical quantiles),
 *     and the share of each (the population's weights); runs refused at the context window work on until
 *     their provider refuses them (fitWindow.ts); generated runs that completed without doing their task
 *     (ground truth) are a retrier that gives up (fitGaveUp.ts);
 *   - output and tool-result token distributions (empirical quantiles of every call and result);
 *   - runs a brake stopped apart: right-censored, they work on until a brake stops them, and the profile
 *     carries the brakes they were recorded under (fitBrakeStops.ts);
 *   - the prompt overhead the growth model cannot see: recorded prompt − (system + goal + the steps the
 *     run's context strategy kept), fitted as a fixed part (tool schemas, framing) plus a part per step in
 *     the prompt (message framing), and the context the runs ran under, which the profile carries (fitPrompt.ts);
 *   - the cached share: recorded cached tokens over the prefix a cache could have served (the previous
 *     prompt: as recorded, else as the growth model builds it, for traces that record no prompt sizes);
 *   - repeat and error shares of tool calls, each group's from its own runs (fitToolShares.ts), and mean
 *     call and tool latencies;
 *   - the hard cap, written only past the default, when a recorded run was longer (fitHardCap.ts).
 */
import { UserError } from '../errors.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { empiricalOf, quantile, type Distribution } from '../synthetic/distributions.js';
import type { Trace } from '../trace/types.js';
import { factsOf, type RunFacts } from './fitFacts.js';
import { meanKeepingEmpirical, rankCorrelation } from './fitSummary.js';
import { SCENARIO_SCHEMA, type ScenarioFile } from './schema.js';
import { counted } from '../plural.js';
import type { ReportWarning } from '../report/warnings.js';
import { compactionWarnings, poolingWarnings, tally } from './fitPooling.js';
import { requireFitArguments } from '../options/entryArguments.js';
import { CONTEXT_WINDOW_GROUP, windowNote, windowUnknownWarnings } from './fitWindow.js';
import { fittedHardCapSteps, hardCapNote } from './fitHardCap.js';
import { shareFieldsOf } from './fitToolShares.js';
import { DEFAULT_HARD_CAP_STEPS } from './settings.js';
import { doneUnfinishedNote, fittedToolSharesNote, GAVE_UP_GROUP, gaveUp, gaveUpEntry, gaveUpNote, truthRunsOf, type TruthRuns } from './fitGaveUp.js';
import { BRAKE_GROUP, CUT_OFF_GROUP, brakeStopNote, brakeStopWarnings, profileBrakesOf, stoppedByBrake, unstatedLimitWarnings } from './fitBrakeStops.js';
import { fittedContextOf, fittedShares, negativeGrowthWarnings, promptOverheadNote, round3, type FittedShares } from './fitPrompt.js';

type Population = ScenarioFile['population'];

const mean = (xs: readonly number[]) => (xs.length === 0 ? undefined : xs.reduce((s, x) => s + x, 0) / xs.length);

const mostCommon = (values: readonly string[]): string => tally(values)[0]![0];

export interface FitResult {
  scenario: ScenarioFile;
  /** How each figure was read from the runs (written as comments at the top of the profile). */
  notes: string[];
  /** What the profile cannot be of these runs (fitPooling.ts): several models or agents pooled, compactions. */
  warnings: ReportWarning[];
  /** The runs whose ground truth fit keeps apart (fitGaveUp.ts): all 0 for recordings. */
  truthRuns: TruthRuns;
}

/**
 * Runs differ in verbosity: each run's mean size per call over the overall mean is its scale, and the
 * sizes are pooled divided by their run's scale, so that scale × size reproduces both spreads.
 */
interface FittedSizes {
  outputTokens: Distribution;
  toolResultTokens: Distribution;
  sizeScale?: Distribution;
  scaledRuns: number;
  /** Each run's size scale (undefined for a run with no calls, or when sizes are not scaled). */
  scaleOf: (f: RunFacts) => number | undefined;
}

function fitSizes(facts: readonly RunFacts[]): FittedSizes {
  const all = (pick: (f: RunFacts) => number[]) => facts.flatMap(pick);
  const sizes = (f: RunFacts) => [...f.outputTokens, ...f.resultTokens];
  const overallMean = mean(all(sizes)) ?? 0;
  const scaleOf = (f: RunFacts) => (overallMean > 0 && f.outputTokens.length > 0 ? mean(sizes(f))! / overallMean : undefined);
  const scaled = facts.filter((f) => scaleOf(f) !== undefined);
  const noTools = all((f) => f.resultTokens).length === 0;
  if (scaled.length < 2) {
    return { outputTokens: meanKeepingEmpirical(all((f) => f.outputTokens), 1, 41), toolResultTokens: noTools ? { kind: 'fixed', value: 0 } : meanKeepingEmpirical(all((f) => f.resultTokens), 1, 41), scaledRuns: 0, scaleOf: () => undefined };
  }
  const unscale = (pick: (f: RunFacts) => number[]) => scaled.flatMap((f) => pick(f).map((n) => n / scaleOf(f)!));
  return {
    outputTokens: meanKeepingEmpirical(unscale((f) => f.outputTokens), 1, 41),
    toolResultTokens: noTools ? { kind: 'fixed', value: 0 } : meanKeepingEmpirical(unscale((f) => f.resultTokens), 1, 41),
    sizeScale: meanKeepingEmpirical(scaled.map((f) => scaleOf(f)!), 1000, 101),
    scaledRuns: scaled.length,
    scaleOf,
  };
}

/**
 * Runs a fit needs before its p95s carry to runs it has not seen (test/scenario/fitHeldOut.test.ts,
 * docs/scenarios.md#fit): fitted on 69 mini-swe-agent runs, 99 unseen runs held within 10% at p95; fitted
 * on 23, the unseen p95s came out 13–15% short (a p95 of 23 runs rests on its longest one or two).
 */
export const RUNS_FOR_A_TAIL = 70;

/**
 * What a profile fitted on `runs` runs can say about runs it has not seen, before it is measured (the
 * profile's comment; `fit --report` says what it measured: fitReliability.ts).
 */
export function heldOutStatement(runs: number, runsForATail: number = RUNS_FOR_A_TAIL): string {
  return runs >= runsForATail
    ? `Fitted on ${runs} runs: fit --report measures how closely this profile reproduces them (not how close it comes on runs it has not seen), and how far sampling alone moves their own p95 (a seeded bootstrap of them).`
    : `Fitted on ${counted(runs, 'run')}, fewer than ${runsForATail}: p50s carry to runs it has not seen, p95s may not (a p95 of ${counted(runs, 'run')} rests on its longest one or two); fit on more runs to know the tail.`;
}

/** The group of runs that ended on a call failed at the provider (a run whose every call failed among them: $0). */
export const PROVIDER_ERROR_GROUP = 'unfinished: provider error';

/** Fewest runs of a group whose steps–size rank correlation is fitted (fewer: drawn independently). */
export const MIN_RUNS_FOR_CORRELATION = 10;

function stepsSizeCorrelation(group: readonly RunFacts[], sizes: FittedSizes): { stepsSizeRankCorrelation?: number } {
  const scaled = group.filter((f) => sizes.scaleOf(f) !== undefined);
  if (sizes.sizeScale === undefined || scaled.length < MIN_RUNS_FOR_CORRELATION) return {};
  const rho = round3(rankCorrelation(scaled.map((f) => f.steps), scaled.map((f) => sizes.scaleOf(f)!)));
  return rho === 0 ? {} : { stepsSizeRankCorrelation: rho };
}

/**
 * A scenario reproducing `traces`; `pricing(trace)` prices each (the figures need a loop, not money: a budget brake's
 * stop reads it), `options.prices` the summary model a recording states (`summary:…,model=X`; without: the run's model).
 */
export function fitScenario(traces: readonly Trace[], pricing: (trace: Trace) => ModelPricing, options: { prices?: PriceTable } = {}): FitResult {
  requireFitArguments(traces, pricing);
  if (traces.length === 0) throw new UserError({ file: '<arguments>', code: 'no_input', message: 'no runs to fit', hint: 'pass recorded traces' });
  const facts = traces.map((trace) => factsOf(trace, pricing(trace), { prices: options?.prices }));
  const shares = fittedShares(facts);
  // The runs that gave up draw their own sizes (fitGaveUp.ts); the others' are pooled.
  const sizes = fitSizes(facts.filter((f) => !gaveUp(f)));
  const groups = endingGroups(facts);
  const model = mostCommon(traces.map((t) => t.header.model));
  const windowTokens = pricing(traces.find((t) => t.header.model === model)!).contextWindow;
  const hardCapSteps = fittedHardCapSteps(facts.map((f) => f.steps));
  const capSteps = hardCapSteps ?? DEFAULT_HARD_CAP_STEPS;
  const ran = fittedContextOf(traces, shares);
  const stops = groupOf(groups, BRAKE_GROUP).map((f) => f.brakeStop!);
  const brakes = profileBrakesOf(stops);
  const fitted = { model, facts, shares, hardCapSteps, context: ran.context, brakes };
  const scenario = fittedScenarioFile(traces, { ...fitted, population: populationOf(groups, { sizes, windowTokens, capSteps }) });
  const windowRuns = groupOf(groups, CONTEXT_WINDOW_GROUP).length;
  const groupNotes = [windowNote(windowRuns, { model, windowTokens, capSteps }), brakeStopNote(stops, capSteps), gaveUpNote(groupOf(groups, GAVE_UP_GROUP), groupOf(groups, 'completed').length), doneUnfinishedNote(facts), hardCapNote(hardCapSteps)];
  const notes = fitNotes(traces, { scenario, shares, sizes, groups, groupNotes: groupNotes.filter((note) => note !== '') });
  const warnings = [
    ...poolingWarnings(traces, model),
    ...ran.warnings,
    ...compactionWarnings(traces, scenario.context?.context ?? 'full'),
    ...negativeGrowthWarnings(shares),
    ...brakeStopWarnings(stops, { runs: traces.length, capSteps, brakes }),
    ...unstatedLimitWarnings(groupOf(groups, CUT_OFF_GROUP).flatMap((f) => f.brakeStop ?? []), traces.length),
    ...windowUnknownWarnings(windowRuns, { model, windowTokens }),
  ];
  return { scenario, notes, warnings, truthRuns: truthRunsOf(facts) };
}

type EndingGroup = [name: string, group: RunFacts[], ending: 'answer' | 'gave-up' | 'provider-error' | 'context-window' | 'brake' | 'cut-off'];

const groupOf = (groups: readonly EndingGroup[], name: string): RunFacts[] => groups.find(([n]) => n === name)![1];

/**
 * The runs by how they ended: completed (having done their task, or with no ground truth to say), completed
 * without doing their task by their ground truth (fitGaveUp.ts), on a failed call, refused at the context
 * window (fitWindow.ts), stopped by a brake (fitBrakeStops.ts), cut off.
 */
function endingGroups(facts: readonly RunFacts[]): EndingGroup[] {
  return [
    ['completed', facts.filter((f) => f.completed && !gaveUp(f)), 'answer'],
    [GAVE_UP_GROUP, facts.filter(gaveUp), 'gave-up'],
    [PROVIDER_ERROR_GROUP, facts.filter((f) => !f.completed && f.endsOnFailedCall && !f.refusedAtWindow), 'provider-error'],
    [CONTEXT_WINDOW_GROUP, facts.filter((f) => !f.completed && f.refusedAtWindow), 'context-window'],
    [BRAKE_GROUP, facts.filter((f) => !f.completed && stoppedByBrake(f.brakeStop)), 'brake'],
    [CUT_OFF_GROUP, facts.filter((f) => !f.completed && !f.endsOnFailedCall && !stoppedByBrake(f.brakeStop)), 'cut-off'],
  ];
}

/**
 * One healthy behaviour per ending group that has runs, weighted by its runs (the runs that gave up: a
 * retrier, fitGaveUp.ts). The runs refused at the window work on until their provider refuses them (steps
 * past any the window allows: not drawn), when the profile's model has a window (`windowTokens`); else they
 * end at their recorded steps on a failed call. The runs a brake stopped work on, their steps not drawn,
 * until a brake stops them (fitBrakeStops.ts); the hard cap cuts off one nothing stops.
 */
function populationOf(groups: readonly EndingGroup[], fitted: { sizes: FittedSizes; windowTokens: number | undefined; capSteps: number }): Population {
  const { sizes } = fitted;
  const { outputTokens, toolResultTokens, sizeScale } = sizes;
  return groups
    .filter(([, group]) => group.length > 0)
    .map(([name, group, ending]): Population[number] => {
      if (ending === 'gave-up') return gaveUpEntry(group);
      const untilTheWindow = ending === 'context-window' && fitted.windowTokens !== undefined;
      const workOn = untilTheWindow || ending === 'brake';
      const written = workOn ? 'cut-off' : ending === 'context-window' ? 'provider-error' : ending;
      return {
        behaviour: 'healthy' as const,
        name,
        weight: group.length,
        steps: workOn ? fitted.capSteps : empiricalOf(group.map((f) => f.steps)),
        ...(written === 'answer' ? {} : { ending: written }),
        ...shareFieldsOf(group),
        outputTokens,
        toolResultTokens,
        ...(sizeScale ? { sizeScale: drawsOwnScale(ending) ? ownScale(group, sizes) : sizeScale } : {}),
        ...(workOn ? {} : stepsSizeCorrelation(group, sizes)),
      };
    });
}

/**
 * Groups that end where their sizes take them draw their own runs' size scales: a run refused at the window
 * gets there at a step, and a run cut off at its last step with a prompt, that follow from its sizes. Drawn
 * from the pooled scales, the window group's terser runs worked on to the hard cap, and the cut-off runs'
 * wordier ones were refused at the window (on the support-bot sample, cost p90 +154%). A run a budget
 * stopped got there at a step its sizes set too.
 */
const drawsOwnScale = (ending: EndingGroup[2]) => ending === 'context-window' || ending === 'cut-off' || ending === 'brake';

function ownScale(group: readonly RunFacts[], sizes: FittedSizes): Distribution {
  const scales = group.flatMap((f) => sizes.scaleOf(f) ?? []);
  return scales.length === 0 ? sizes.sizeScale! : meanKeepingEmpirical(scales, 1000, 101);
}

/** The groups that draw their own runs' scales, said ('' when none has runs, or sizes are not scaled). */
function ownScales(groups: readonly EndingGroup[], sizes: FittedSizes): string {
  const own = groups.filter(([, group, ending]) => group.length > 0 && drawsOwnScale(ending)).map(([name]) => `'${name}'`);
  return own.length === 0 || sizes.sizeScale === undefined ? '' : `; ${own.join(' and ')} ${own.length === 1 ? 'draws its' : 'each draw their'} own runs' scales (where such a run ends follows from its sizes)`;
}

/** What fitScenario fitted, written as the profile's fields. */
interface Fitted {
  model: string;
  facts: readonly RunFacts[];
  shares: FittedShares;
  hardCapSteps: number | undefined;
  /** The context the runs ran under (fitPrompt.ts), and the brakes the runs a brake stopped were recorded under (fitBrakeStops.ts). */
  context: ReturnType<typeof fittedContextOf>['context'];
  brakes: ScenarioFile['brakes'];
  population: Population;
}

function fittedScenarioFile(traces: readonly Trace[], fitted: Fitted): ScenarioFile {
  const { facts, shares } = fitted;
  const callLatency = mean(facts.flatMap((f) => f.callLatenciesMs));
  const toolLatency = mean(facts.flatMap((f) => f.toolLatenciesMs));
  const systemValues = facts.map((f) => f.systemTokens).sort((a, b) => a - b);
  return {
    scenario: SCENARIO_SCHEMA,
    name: 'fitted profile',
    description: `fitted to ${traces.length} recorded runs by loopcost fit`,
    model: fitted.model,
    ...(traces.some((t) => t.header.provider) ? { provider: mostCommon(traces.flatMap((t) => (t.header.provider ? [t.header.provider] : []))) } : {}),
    systemTokens: Math.round(quantile(systemValues, 0.5)),
    goalTokens: empiricalOf(facts.map((f) => f.goalTokens)),
    promptOverhead: { fixedTokens: shares.fixedTokens, perStepTokens: shares.perStepTokens },
    ...(shares.cached > 0 ? { cacheHitShare: shares.hitShare } : {}),
    ...(callLatency === undefined && toolLatency === undefined
      ? {}
      : { latency: { call: Math.round(callLatency ?? 0), tool: Math.round(toolLatency ?? 0) } }),
    ...(fitted.brakes === undefined ? {} : { brakes: fitted.brakes }),
    context: { context: fitted.context.context, ...(fitted.context.toolResultCap === undefined ? {} : { 'tool-result-cap': fitted.context.toolResultCap }), cache: shares.cached > 0 ? 'on' : 'off' },
    ...(fitted.hardCapSteps === undefined ? {} : { hardCapSteps: fitted.hardCapSteps }),
    population: fitted.population,
  };
}

/**
 * The header's caveat on context strategies: fit's entries are `healthy` (and a `retrier` that gives up, for runs
 * that answered without doing their task: fitGaveUp.ts), whose steps do not depend on what the prompt holds, so they
 * do not react to a context strategy (report/warnings.ts STRATEGY_CLOSED_LOOP_WAY).
 */
export function fittedContextNote(population: Population): string {
  const entries = population.some((entry) => entry.behaviour === 'retrier') ? 'every entry is healthy or a retrier that gives up' : 'every entry is healthy';
  return (
    `Context strategies: ${entries}, whose steps do not depend on what the prompt holds, so its agents do not react to the context strategy: under window, mask or summary its runs cost what the strategy costs but complete and stop as under full history. ` +
    'For a strategy\'s effect on completions, add entries whose behaviour reacts to the window (forgetful: docs/scenarios.md) or run your own agent under it (against loopcost serve, or runAgentLoop).'
  );
}

/** What the fit did, in words (the profile's header comment). */
function fitNotes(traces: readonly Trace[], fitted: { scenario: ScenarioFile; shares: FittedShares; sizes: FittedSizes; groups: readonly EndingGroup[]; groupNotes: readonly string[] }): string[] {
  const { scenario, shares, sizes, groups } = fitted;
  const models = [...new Set(traces.map((t) => t.header.model))].sort();
  return [
    `Fitted by loopcost fit to ${counted(traces.length, 'recorded run')} (${groups.filter(([, g]) => g.length > 0).map(([n, g]) => `${g.length} ${n}`).join(', ')}).`,
    models.length === 1 ? `${traces.length === 1 ? 'The run was' : 'Every run was'} made on ${models[0]}.` : `Runs were made on ${models.join(', ')}; the profile is of ${scenario.model}, the most common.`,
    promptOverheadNote(shares, traces),
    `Cached share: ${shares.cached} cached of ${shares.servable} tokens a cache could have served (the previous prompt${shares.modelledPrompts > 0 ? `, as the growth model builds it where a call recorded none: ${shares.modelledPrompts} calls` : ''}) = ${shares.hitShare}.`,
    fittedToolSharesNote(groups),
    `Sizes: each run's mean size per call over the overall mean is its size scale (${sizes.scaledRuns} runs); output and tool-result sizes are pooled divided by their run's scale${ownScales(groups, sizes)}.`,
    ...fitted.groupNotes,
    heldOutStatement(traces.length),
    `Steps and size scale are drawn together per run where a group has ${MIN_RUNS_FOR_CORRELATION} runs or more (Gaussian copula with the group's rank correlation, stepsSizeRankCorrelation); the prompt head independently; token sizes per step, the top knot of each size distribution keeping the mean of its last segment.`,
    fittedContextNote(scenario.population),
  ];
}
