/**
 * `loopcost check`: every scenario file's expectations held against its runs under its settings (the
 * flags given on top). Everything is read and checked before any run, and every output is rendered
 * before any is written, then written all or nothing (checkWrite.ts): bad input, or an output that cannot
 * be written, writes nothing. Exit 0 when all hold, 1 when any fails or drifts or a
 * scenario of the baseline was not checked, 2 for bad input (nothing to check among it: no expectation
 * and no baseline).
 */
import { inputWarningsOf, repeatedInputsWarning, sayInputWarning, skippedInputsWarning } from './inputWarnings.js';
import { driftFromBaseline, parseTolerance, renderBaseline, type BaselineDrift, type BaselineFile } from '../../check/baseline.js';
import { expectationCount } from '../../check/evaluate.js';
import { ResolvedPrices, type PriceRow } from '../../check/modelPrices.js';
import { scenarioKeys } from '../../check/scenarioKey.js';
import { refuseRunsPastHeap } from '../runsHeap.js';
import { checkScenarioFiles, loadCheckInputsAsCommand } from '../../check/inputs.js';
import { renderJunit } from '../../check/junit.js';
import { buildCheckReport, renderCheckJson, renderCheckTable, type CheckReport } from '../../check/report.js';
import { checkScenarioAsCommand, type ScenarioCheck } from '../../check/run.js';
import type { CheckTree } from '../../check/treeRuns.js';
import type { TreeFlags } from './treeFlags.js';
import { checkTreeOf, onePerSession, treeOpenLoopWarning } from './checkTree.js';
import { UserError } from '../../errors.js';
import { loadPriceTable } from '../../pricing/index.js';
import { SessionParts, sessionPartsWarnings, unrecordedAgentsWarnings, warningLines, type ReportWarning } from '../../report/warnings.js';
import { hasBrakes } from '../../report/settings.js';
import { scenarioOverridesFromFlags } from '../../scenario/overrides.js';
import type { Trace } from '../../trace/types.js';
import type { CliIO } from '../io.js';
import { priceOptionsFromFlags, type PriceFlags, type ReadFlags } from '../parseFlags.js';
import { type BrakeFlags, type ContextFlags } from '../../flags/settingsFlags.js';
import { LOOPCOST_VERSION } from '../../version.js';
import { checkBrakeFlags, chooseFormat, refuseStdoutOutput, warnScenarioFlags } from './flagChecks.js';
import { baselineKeys, writesComparedBaseline } from './checkBaseline.js';
import { baselineToCompare, baselineWritten, carryOver, overrideFlags, overridesLine, replacedWarning, type BaselineRead } from './checkBaselineWrite.js';
import type { BaselineCarry, BaselineWritten } from '../../check/baselineCarry.js';
import { checkReadFlags, refuseScenariosNotAsFiles, type GivenFlag } from './inputs.js';
import { readCheckTraces } from './checkTraces.js';
import { nothingCheckedWarnings } from './checkUnchecked.js';
import { leftOut, sayLeftOut } from './checkLeftOut.js';
import { checkOutputs as checkCommandOutputs, pricedInputs, reportView, tableOrJson, type OutputFile } from './output.js';
import { announceCheckOutputs, writeCheckOutputs, type CheckFile } from './checkWrite.js';
import { refuseCheckOutExtension, refuseOwnStdout } from './checkOutputFlags.js';
import { counted } from '../../plural.js';
import { repeatedInputsMessage, skippedMessage } from '../../import/inputSet.js';
import { someNames } from '../../someNames.js';
import { letYoungGenerationGrow } from '../youngGeneration.js';
import { checkCacheWarnings, fittedProfileWarnings } from './scenarioWarnings.js';
import { priceGapWarningsOf } from '../../replay/priceGaps.js';
import { checkTriggerWarnings } from './scenarioTriggers.js';
import { importNotesTallyOf } from './runNotes.js';
import { rebuiltStrategyWarnings, recordedStrategyWarnings, statedStrategiesOf } from '../../report/recordedStrategyWarning.js';
import { rebuiltUnder } from '../../replay/recordedStrategy.js';
import { checkStrategyOpenLoopWarnings } from './checkStrategyOpenLoop.js';
import { checkPrices } from './checkPrices.js';
import { isIdentity } from '../../context/strategy.js';
import { PopulationWindows, WindowlessModels } from '../../population/modelWindow.js';
import type { CheckInput } from '../../check/inputs.js';
import { recordedRunsModel } from '../../check/fileModel.js';
import type { PriceTable } from '../../pricing/types.js';
import type { Scenario } from '../../scenario/load.js';

export type CheckFlags = BrakeFlags &
  ContextFlags &
  PriceFlags &
  ReadFlags &
  TreeFlags & {
    format?: string;
    out?: string;
    model?: string;
    junit?: string;
    updateBaseline?: string;
    baseline?: string;
    tolerance?: string;
    latencyModel?: string;
    runs?: string;
    seed?: string;
  };

const DEFAULT_TOLERANCE = '5%';

function openLoopWarning(recordedRuns: number, tree: boolean): ReportWarning[] {
  if (recordedRuns === 0) return [];
  if (tree) return treeOpenLoopWarning(recordedRuns);
  return [
    {
      code: 'open_loop',
      message: `${recordedRuns} recorded run${recordedRuns === 1 ? ' is' : 's are'} replayed as recorded (open loop): a brake can only stop them earlier; completions and false stops are what the recordings did`,
    },
  ];
}

/**
 * Runs that are parts of session trees (a Claude Code session's main.1, main.2 and sub-agents), checked as
 * runs of their own: each brake binds each part, and every expectation counts each part as a run. The
 * warning names --tree, which judges each session as one run (not said under it).
 */
function sessionPartWarnings(checks: readonly CheckInput[], recorded: readonly Trace[]): ReportWarning[] {
  return sessionPartsWarnings(SessionParts.of(recorded).parts(), {
    braked: checks.some((input) => input.traceFiles.length > 0 && hasBrakes(input.settings.brakes)),
    figures: 'the expectations (each run, and the population: completion rate, false stops)',
    remedy: "check --tree judges each session as one run, replayed as one loop under the scenario's brakes (its budget binding the whole tree), as replay --tree and sweep --tree replay it",
  });
}

/**
 * `--context-window model` (a flag, or a scenario file's own brakes) on runs whose model the table gives
 * no window: each file's runs (`traces[i]`, then its population) under its brakes, as checkRuns runs them.
 */
function windowWarnings(checks: readonly CheckInput[], traces: readonly Trace[][], options: { prices: PriceTable; model?: string }): ReportWarning[] {
  const found = new WindowlessModels();
  checks.forEach((input, i) => {
    // Recorded runs priced as --model, else as a traces-only file's `model:` (fileModel.ts), else as their own.
    const model = recordedRunsModel(input.scenario, options.model);
    const windows = PopulationWindows.of([{ brakes: input.settings.brakes, ...(model === undefined ? {} : { model }) }], options.prices).addInputs({ traces: traces[i]! });
    if (input.scenario.population !== undefined) windows.addScenario(input.scenario as Scenario);
    found.add(windows.models());
  });
  return found.warnings();
}

/**
 * The outputs against what check reads: its scenario files and the traces they name (not the other files
 * of a directory given, which check leaves out: a baseline kept beside the scenarios is renewed in place).
 */
function checkOutputs(opts: CheckFlags, read: { scenarioFiles: readonly string[]; checks: readonly CheckInput[] }, io: CliIO): void {
  // --update-baseline may replace the --baseline compared with (read first): the way a baseline is renewed.
  const outputs: OutputFile[] = [['--out', opts.out], ['--junit', opts.junit], ['--update-baseline', opts.updateBaseline, opts.baseline]];
  const files = [...read.scenarioFiles, ...read.checks.flatMap((input) => input.traceFiles)];
  checkCommandOutputs(outputs, [...pricedInputs(files, opts), ['--baseline', opts.baseline]], io);
  if (opts.tolerance !== undefined && opts.baseline === undefined) {
    throw new UserError({ file: '<command line>', field: '--tolerance', code: 'flag_without_effect', message: 'has no effect without --baseline', hint: "add --baseline FILE, or drop --tolerance; run 'loopcost check --help'" });
  }
}

/**
 * A check with no expectation and no baseline holds its runs to nothing and would pass whatever they do:
 * as a CI gate that is a mistake, refused before any run (exit 2, bad input, as a glob that matches
 * nothing). Writing a baseline (`--update-baseline`) is a use of its own: the figures later checks compare.
 */
function refuseNothingToCheck(checks: readonly CheckInput[], opts: CheckFlags): void {
  if (opts.baseline !== undefined || opts.updateBaseline !== undefined) return;
  if (checks.some((input) => expectationCount(input.scenario.expect) > 0)) return;
  const files = checks.map((input) => input.scenario.source);
  throw new UserError({
    file: files.length === 1 ? files[0]! : '<arguments>',
    ...(files.length === 1 ? { field: 'expect' } : {}),
    code: 'nothing_to_check',
    message:
      files.length === 1
        ? 'the scenario file holds no expectation (no `expect:` block, or one with no bound) and no --baseline is given: check would pass whatever its runs do'
        : `none of the ${files.length} scenario files (${someNames(files)}) holds an expectation (an \`expect:\` block with a bound) and no --baseline is given: check would pass whatever their runs do`,
    hint: 'add an `expect:` block to a scenario file, e.g. `expect: { runs: { steps: { max: 12 } } }` (docs/check.md); or compare with a baseline: write one with --update-baseline FILE, then check with --baseline FILE',
  });
}

/** The baseline a check compares with: its file, how its scenario keys are read, the tolerance. */
type Compared = { baseline: BaselineFile; file: string; tolerance: number; implicit: boolean } & ReturnType<typeof baselineKeys>;

/**
 * Every scenario checked against its runs (`traces[i]`), and with `compared` against the baseline (run
 * again at the baseline's prices when a model's prices changed). The prices of every model the runs
 * resolve are noted: a baseline stores them, a later check compares them.
 */
function checkAll(checks: readonly CheckInput[], traces: readonly Trace[][], args: { prices: PriceTable; model?: string; compared?: Compared; tree?: CheckTree }): { scenarios: ScenarioCheck[]; models: PriceRow[]; found?: BaselineDrift; notCompared?: ReportWarning } {
  const resolved = new ResolvedPrices(args.prices);
  const run = (table: PriceTable) => checks.map((input, i) => checkScenarioAsCommand(input, traces[i]!, table, args.model, args.tree));
  const scenarios = run(resolved);
  const models = resolved.rows();
  const { compared } = args;
  if (compared === undefined) return { scenarios, models };
  const { baseline, implicit, ...keyed } = compared;
  try {
    return { scenarios, models, found: driftFromBaseline(scenarios, baseline, { ...keyed, version: LOOPCOST_VERSION, prices: args.prices, models, rerun: run }) };
  } catch (error) {
    // The file --update-baseline replaces, no --baseline given: one of other scenarios is replaced, said.
    if (!implicit || !(error instanceof UserError)) throw error;
    return { scenarios, models, notCompared: replacedWarning(compared.file, error) };
  }
}


/** The warnings of a check's report (price gaps, open loop, parts, unrecorded sub-agents, cache, window, fitted profiles, summary triggers, import notes, nothing checked). */
function checkWarnings(args: {
  checks: readonly CheckInput[];
  recorded: readonly Trace[];
  traces: Trace[][];
  scenarios: readonly ScenarioCheck[];
  parts: ReportWarning[];
  tree: boolean;
  drift: Parameters<typeof nothingCheckedWarnings>[1]['drift'];
  prices: ReturnType<typeof loadPriceTable>;
  opts: CheckFlags;
}): ReportWarning[] {
  const { checks, recorded, traces, scenarios, drift, prices, opts } = args;
  const named = [...new Set(checks.flatMap((input) => input.traceFiles))];
  const model = opts.model === undefined ? {} : { model: opts.model };
  return [
    ...priceGapWarningsOf(recorded, { prices, ...model, inputs: named }),
    ...openLoopWarning(scenarios.reduce((n, s) => n + s.recordedRuns, 0), args.tree),
    ...checkStrategyOpenLoopWarnings(checks, traces),
    ...args.parts,
    ...unrecordedAgentsWarnings(onePerSession(scenarios.flatMap((s) => s.tree?.unrecorded ?? []))),
    ...checkCacheWarnings(checks, traces, { prices, ...model }),
    ...windowWarnings(checks, traces, { prices, ...model }),
    ...fittedProfileWarnings(checks.map((input) => input.scenario), prices),
    ...checkTriggerWarnings(checks, { prices, ...model }),
    ...importNotesTallyOf(recorded).warnings(),
    // Recordings that state their strategy, replayed under a scenario's full context, replay under it (recordedStrategyWarning.ts): each run once.
    ...recordedStrategyWarnings(statedStrategiesOf(new Set(traces.flatMap((runs, i) => (isIdentity(checks[i]!.traceStrategy) ? runs : []))))),
    ...rebuiltStrategyWarnings(statedStrategiesOf(new Set(traces.flatMap((runs, i) => runs.filter((run) => rebuiltUnder(run, checks[i]!.traceStrategy)))))),
    ...nothingCheckedWarnings(scenarios, { ...(drift === undefined ? {} : { drift }), ...(opts.updateBaseline === undefined ? {} : { writes: opts.updateBaseline }) }),
  ];
}

/** The files a check writes, rendered: the report (`--out`), the JUnit XML, the baseline. */
function checkFiles(opts: CheckFlags, rendered: { text: string; report: CheckReport; models: PriceRow[]; carry: BaselineCarry | undefined }): CheckFile[] {
  const { report } = rendered;
  const files: CheckFile[] = [];
  if (opts.out !== undefined) files.push({ flag: '--out', path: opts.out, text: rendered.text });
  if (opts.junit !== undefined) files.push({ flag: '--junit', path: opts.junit, text: renderJunit(report) });
  if (opts.updateBaseline !== undefined) {
    const { carry } = rendered;
    const baseline = renderBaseline(report.scenarios, { prices: report.prices.source, models: carry?.models ?? rendered.models, version: LOOPCOST_VERSION, scenarioKey: scenarioKeys(opts.updateBaseline).keyOf, ...(carry === undefined ? {} : { kept: carry.entries }) });
    files.push({ flag: '--update-baseline', path: opts.updateBaseline, text: baseline });
  }
  return files;
}

/** The flags that overrode the scenario files' settings (as given): a baseline written under them says so. */
function overrideKeysOf(overrides: ReturnType<typeof scenarioOverridesFromFlags>): string[] {
  return [...Object.keys(overrides.brakeFlags ?? {}), ...Object.keys(overrides.contextFlags ?? {}), 'latencyModel', 'runs', 'seed', 'model'];
}

/**
 * Writing again the baseline compared with accepts what was found against it (the way the report says to accept
 * a change), keeping its scenarios not checked (checkBaselineWrite.ts); the report's `baselineWritten` says what
 * the baseline written carried over, replaced, and holds of the flags.
 */
function acceptFound(opts: CheckFlags, args: { checked: ReturnType<typeof checkAll>; read: BaselineRead | undefined; replaced: ReportWarning | undefined; overrides: string[] }) {
  const { models, found } = args.checked;
  const { read } = args;
  const accepting = found !== undefined && read !== undefined && (read.implicit || writesComparedBaseline(opts.baseline, opts.updateBaseline));
  const over = accepting ? carryOver(found, { read, models, written: opts.updateBaseline! }) : undefined;
  const replacedWarning = args.replaced ?? args.checked.notCompared;
  const written: BaselineWritten | undefined =
    opts.updateBaseline === undefined ? undefined : baselineWritten(opts.updateBaseline, { ...(over === undefined ? {} : { carry: over.carry }), ...(found === undefined || read === undefined ? {} : { read }), replaced: replacedWarning !== undefined, overrides: args.overrides });
  return { over, drift: over?.drift ?? found?.drift, written, replacedWarning };
}

export async function checkAction(inputs: string[], opts: CheckFlags, io: CliIO, given: GivenFlag): Promise<number> {
  letYoungGenerationGrow();
  refuseCheckOutExtension(opts);
  checkReadFlags(opts);
  const format = chooseFormat(opts, io);
  tableOrJson('check', format);
  refuseScenariosNotAsFiles(inputs, 'check');
  const { scenarioFiles, skipped, repeated, unread } = checkScenarioFiles(inputs, { skipBad: opts.skipBad === true });
  sayInputWarning(io, repeatedInputsWarning(repeated), repeatedInputsMessage(repeated));
  // (--skip-bad) The pipes and devices among check's own inputs, listed as every command lists them.
  const unreadBad = unread.map((entry) => ({ file: entry.path, issues: [entry.issue] }));
  const inputCount = scenarioFiles.length + skipped.length + unread.length;
  sayInputWarning(io, skippedInputsWarning(unreadBad, inputCount), skippedMessage(unreadBad, inputCount));
  const overrides = scenarioOverridesFromFlags(opts, given);
  const checks = loadCheckInputsAsCommand(scenarioFiles, overrides, { skipBad: opts.skipBad === true });
  // --runs and --seed make synthetic runs: said, as replay and sweep say it, when no file has a population.
  warnScenarioFlags(opts, checks.filter((input) => input.scenario.population !== undefined).length, io, { appliesTo: "scenario files' synthetic populations", none: 'no scenario file checked has one (only traces:)' });
  refuseRunsPastHeap('check', checks.filter((input) => input.scenario.population !== undefined), { runsGiven: given('runs'), pooled: false });
  refuseStdoutOutput({ '--update-baseline': opts.updateBaseline, '--junit': opts.junit }, { command: 'check', carries: 'report' });
  refuseOwnStdout({ '--update-baseline': opts.updateBaseline, '--junit': opts.junit });
  checkOutputs(opts, { scenarioFiles, checks }, io);
  const tolerance = parseTolerance(opts.tolerance ?? DEFAULT_TOLERANCE);
  const { read, replaced } = baselineToCompare(opts, inputs, { tree: opts.tree === true });
  checkBrakeFlags(opts, 'check', checks.map((input) => input.settings.brakes));
  const tree = checkTreeOf(opts, checks);
  refuseNothingToCheck(checks, opts);
  sayLeftOut(leftOut(skipped, checks, opts), io);
  const prices = loadPriceTable(priceOptionsFromFlags(opts));
  const compared = read === undefined ? undefined : { baseline: read.baseline, file: read.file, tolerance, implicit: read.implicit, ...baselineKeys(read.file, { inputs, sources: checks.map((input) => input.scenario.source) }) };
  // Each trace file read once, however many scenario files name it (what reading it says is said once); a
  // run past $9,007 makes its file bad, and the scenarios are checked again without it.
  const pricing = { prices, ...(opts.model === undefined ? {} : { model: opts.model }) };
  const checked = await readCheckTraces(checks, { flags: opts, io, pricing, ...(tree === undefined ? {} : { tree: true }) }, ({ perScenario }) => checkAll(checks, perScenario, { ...pricing, ...(compared === undefined ? {} : { compared }), ...(tree === undefined ? {} : { tree }) }));
  const { perScenario: traces, runs: recorded } = checked.traces;
  const { scenarios, models } = checked.result;
  const { over, drift, written, replacedWarning } = acceptFound(opts, { checked: checked.result, read, replaced, overrides: overrideFlags(opts, given, overrideKeysOf(overrides)) });
  const parts = tree === undefined ? sessionPartWarnings(checks, recorded) : [];
  const warnings = [...inputWarningsOf(io), ...(replacedWarning === undefined ? [] : [replacedWarning]), ...checkWarnings({ checks, recorded, traces, scenarios, parts, tree: tree !== undefined, drift, prices, opts })];
  const report = buildCheckReport({ scenarios, ...(drift === undefined ? {} : { drift }), prices: checkPrices(checks, traces, pricing), version: LOOPCOST_VERSION, warnings, ...(written === undefined ? {} : { baselineWritten: written }) });
  const text = format === 'json' ? renderCheckJson(report) : renderCheckTable(report, reportView(opts, io).width);
  // Every output rendered, then written all or nothing (checkWrite.ts): a run that exits 2 leaves none of them.
  const files = checkFiles(opts, { text, report, models, carry: over?.carry });
  writeCheckOutputs(files, opts.out === undefined ? text : undefined, io);
  // A CI gate must not pass silently on parts: said on stderr too (with --out every warning is said there).
  if (opts.out === undefined) io.stderr(warningLines(parts));
  announceCheckOutputs(files, { format, warnings, baselineWhat: `baseline of ${counted(scenarios.length + (over?.carry.kept.length ?? 0), 'scenario')}` }, io);
  if (written !== undefined) io.stderr(overridesLine(written));
  return report.passed ? 0 : 1;
}
