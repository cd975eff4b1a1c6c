/**
 * `loopcost serve TRACES|SCENARIO [--port P] [--host H]`: reads and checks the inputs (bad paths and
 * files exit 2 before anything listens), serves until SIGINT, SIGTERM or SIGHUP, then closes and exits 0.
 * A scenario file's `traces:` entries go unread, and it says so on stderr as it starts (as replay does);
 * a fitted profile's warnings, and a price table other than fit's, are said on stderr too.
 */
import type { CacheMode } from '../../context/strategy.js';
import { UserError, type InputIssue } from '../../errors.js';
import { collectInputFiles } from '../../io/collectInputs.js';
import { checkBaselinesMessage } from '../../io/checkBaselineFile.js';
import { formatUsd } from '../../report/money.js';
import { loadPriceTable } from '../../pricing/index.js';
import { loadScenarioFile } from '../../scenario/load.js';
import { splitInputs } from '../../scenario/inputs.js';
import { scenarioSettings } from '../../scenario/settings.js';
import { SessionRegistry, type ServeSources } from '../../serve/registry.js';
import { startServer } from '../../serve/server.js';
import { optionIssue, type RuledOption } from '../../serve/options.js';
import type { PriceTable } from '../../pricing/types.js';
import type { CliIO } from '../io.js';
import { decimalNumber } from '../../io/numberText.js';
import { nonNegativeInt } from '../../flags/numberFlags.js';
import { priceOptionsFromFlags, type PriceFlags, type ReadFlags } from '../parseFlags.js';
import { repeatedInputsMessage, skippedMessage } from '../../import/inputSet.js';
import { checkReadFlags, sayNoModelCall, traceInputs } from './inputs.js';
import { missingTranscriptsOf, warnMissingTranscripts } from './missingTranscripts.js';
import { counted } from '../../plural.js';
import { warningLines } from '../../report/warnings.js';
import { fittedProfileWarnings, TRACES_ELSEWHERE, unreadTracesWarnings } from './scenarioWarnings.js';
import { checkListenHost, SERVE_FLAGS_PLACE } from './serveListen.js';
import { servePricingBrakeRefusal } from './serveBrakeFlags.js';
import { ListenProblem } from '../../serve/listenProblem.js';
import { serveCheckText, type ServeCheck } from '../../report/serveCheck.js';
import { DEFAULT_TABLE_WIDTH } from '../../report/table.js';
import { runsCache } from '../../report/runsTook.js';
import { defaultCacheMode } from '../../replay/replay.js';
import { tracePricing } from '../../replay/tracePricing.js';
import { resolveScenarioPricing } from '../../scenario/scenarioPlaces.js';

export type ServeFlags = PriceFlags & ReadFlags & { port?: string; host?: string; cache?: string; seed?: string; maxSessions?: string; sessionIdleSeconds?: string; check?: boolean };

function usage(field: string, message: string, hint?: string): UserError {
  return new UserError({ file: '<command line>', field, code: 'bad_value', message, ...(hint === undefined ? {} : { hint }) });
}

/** The flags that set startServer's options, as the server takes them. */
interface FlagOptions {
  host: string;
  port: number;
  cache?: CacheMode;
  maxSessions?: number;
  sessionIdleSeconds?: number;
}

/**
 * The flags that set startServer's options, read and checked by the server's own rule for each
 * (serve/options.ts: the library refuses what the command line refuses): every problem named together,
 * before any input is read.
 */
function flagOptions(flags: ServeFlags): FlagOptions {
  const issues: InputIssue[] = [];
  const read = <T>(key: RuledOption, flag: string, raw: string | undefined, value: T): T | undefined => {
    if (raw === undefined) return undefined;
    const issue = optionIssue(key, value, { file: '<command line>', field: flag, shown: `'${raw}'` });
    if (issue) issues.push(issue);
    return value;
  };
  const host = read('host', '--host', flags.host, flags.host) ?? '127.0.0.1';
  const port = read('port', '--port', flags.port, decimalNumber(flags.port ?? '')) ?? 8787;
  const cache = read('cache', '--cache', flags.cache, flags.cache as CacheMode | undefined);
  const maxSessions = read('maxSessions', '--max-sessions', flags.maxSessions, decimalNumber(flags.maxSessions ?? ''));
  const sessionIdleSeconds = read('sessionIdleSeconds', '--session-idle-seconds', flags.sessionIdleSeconds, decimalNumber(flags.sessionIdleSeconds ?? ''));
  if (issues.length > 0) throw new UserError(issues);
  return { host, port, ...(cache === undefined ? {} : { cache }), ...(maxSessions === undefined ? {} : { maxSessions }), ...(sessionIdleSeconds === undefined ? {} : { sessionIdleSeconds }) };
}

/** `--cache` for a scenario's runs: its strategy's, on or off (a synthetic run has no recording). */
function scenarioCache(cache: CacheMode | undefined): CacheMode | undefined {
  if (cache === 'recorded') throw usage('--cache', "'recorded' is not one of on, off for a scenario's runs", 'a synthetic run has no recording: on or off');
  return cache;
}

async function sourcesOf(inputs: readonly string[], flags: ServeFlags, io: CliIO): Promise<ServeSources> {
  const { files, repeated, unread, broughtIn, checkBaselines } = collectInputFiles(inputs, { skipBad: flags.skipBad === true });
  if (repeated.length > 0) io.stderr(repeatedInputsMessage(repeated));
  io.stderr(checkBaselinesMessage(checkBaselines));
  const { scenarioFiles, traceFiles } = splitInputs(files);
  // Read first: a bad --seed is refused alone, whatever the inputs (not said to be ignored, then refused or not).
  const seed = flags.seed === undefined ? undefined : nonNegativeInt('--seed', flags.seed);
  if (scenarioFiles.length > 0) {
    if (scenarioFiles.length > 1) throw usage('<inputs>', `serve answers from one scenario file; ${scenarioFiles.length} were given (${scenarioFiles.join(', ')})`, 'start one server per scenario file, each on its own --port');
    if (traceFiles.length + unread.length > 0) throw usage('<inputs>', 'serve answers from recorded traces or from one scenario file, not both', 'start one server for the traces and one for the scenario file, each on its own --port');
    const scenario = loadScenarioFile(scenarioFiles[0]!);
    io.stderr(warningLines(unreadTracesWarnings([scenario], TRACES_ELSEWHERE.serve)));
    const settings = scenarioSettings(scenario, seed === undefined ? {} : { seed });
    const cache = scenarioCache(flags.cache as CacheMode | undefined); // one of CACHE_MODES: flagOptions checked it
    return { scenario: { scenario, settings: { seed: settings.seed, strategy: { ...settings.strategy, ...(cache === undefined ? {} : { cache }) } } } };
  }
  if (seed !== undefined) io.stderr('loopcost: --seed applies to scenario files only; ignored\n');
  const read = traceInputs(traceFiles, flags, { unread, broughtIn });
  const { results: traces, skipped } = await read.map((trace) => trace);
  if (traces.length === 0) {
    const why = skipped.length > 0 ? `no trace to serve: every input file has problems (${skipped.map((bad) => bad.file).join(', ')})` : 'no trace to serve';
    throw usage('<inputs>', why, skipped.length > 0 ? 'run without --skip-bad to see each problem' : 'name trace files, directories or globs that hold at least one run');
  }
  sayNoModelCall(io, read);
  io.stderr(skippedMessage(skipped, read.inputCount));
  warnMissingTranscripts(traces.flatMap(missingTranscriptsOf), io);
  return { traces };
}

/** What startServer checks before listening (every trace's model priced, the scenario prepared). */
function checkSources(sources: ServeSources, prices: PriceTable): void {
  new SessionRegistry({ sources, prices });
}

/**
 * What serve would answer as, for `--check`: the inputs (a scenario with its seed), the model each
 * recording (or the scenario) is priced as, the cache each takes (`--cache`, else each recording's own:
 * runsCache; a scenario's strategy's, `--cache` on top, else off), and the prices: the table, whose dated
 * prices are each recording's day's; for a scenario, as its model's resolved (a synthetic run has no
 * recording day: the day the table's rule gives a run without one, said as it is).
 */
function servedAs(sources: ServeSources, options: { prices: PriceTable; cache: CacheMode | undefined }): Pick<ServeCheck, 'what' | 'models' | 'cache' | 'priceSource' | 'population'> {
  const { prices, cache } = options;
  if (sources.traces) {
    const models = sources.traces.map((trace) => tracePricing(trace, { prices }).model);
    return { what: counted(sources.traces.length, 'recorded run'), models, priceSource: prices.source, cache: runsCache({ ...(cache === undefined ? {} : { given: cache }), recordedCaches: sources.traces.map(defaultCacheMode), scenarios: [] }) };
  }
  const { scenario, settings } = sources.scenario!;
  const seed = settings?.seed === undefined ? '' : ` (seed ${settings.seed})`;
  const pricing = resolveScenarioPricing(scenario, prices);
  return { what: `synthetic runs of ${scenario.source}${seed}`, models: [pricing.model], priceSource: pricing.source, cache: settings?.strategy?.cache ?? 'off', population: scenario.population };
}

/** A fitted profile served: what fit warned of it, and a price table other than fit's (its runs' costs and window), on stderr. */
function warnFittedProfile(sources: ServeSources, prices: PriceTable, io: CliIO): void {
  if (sources.scenario !== undefined) io.stderr(warningLines(fittedProfileWarnings([sources.scenario.scenario], prices)));
}

/** The signals that stop serve with its summary line: Ctrl-C, a service manager's stop, its terminal closed. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Resolves on the first of STOP_SIGNALS. */
function stopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      for (const name of STOP_SIGNALS) process.off(name, stop);
      resolve(signal);
    };
    for (const name of STOP_SIGNALS) process.on(name, stop);
  });
}

export async function serveAction(inputs: string[], flags: ServeFlags, io: CliIO): Promise<number> {
  const refused = servePricingBrakeRefusal(flags);
  if (refused) throw refused;
  const { host, port, cache, maxSessions, sessionIdleSeconds } = flagOptions(flags);
  checkReadFlags(flags);
  const sources = await sourcesOf(inputs, flags, io);
  const prices = loadPriceTable(priceOptionsFromFlags(flags));
  const what = sources.traces ? counted(sources.traces.length, 'recorded run') : `synthetic runs of ${sources.scenario!.scenario.source}`;
  if (flags.check === true) {
    checkSources(sources, prices);
    await checkListenHost({ host, port });
    warnFittedProfile(sources, prices, io);
    io.stdout(serveCheckText({ ...servedAs(sources, { prices, cache }), host, port, width: io.columns ?? DEFAULT_TABLE_WIDTH }));
    return 0;
  }
  let server;
  try {
    server = await startServer({ sources, prices, host, port, ...(cache === undefined || !sources.traces ? {} : { cache }), ...(maxSessions === undefined ? {} : { maxSessions }), ...(sessionIdleSeconds === undefined ? {} : { sessionIdleSeconds }) });
  } catch (error) {
    throw error instanceof ListenProblem ? error.namedAt(SERVE_FLAGS_PLACE) : error; // (startServer's words, naming the flags)
  }
  warnFittedProfile(sources, prices, io);
  // Listened for once listening (a failed start leaves no handler behind): the first SIGINT, SIGTERM or SIGHUP stops the server, a second one the process.
  const stopped = stopSignal();
  io.stdout(`loopcost serve: listening on ${server.url} (OpenAI base URL ${server.url}/v1), answering from ${what}; Ctrl-C stops it\n`);
  const signal = await stopped;
  await server.close();
  io.stderr(stoppedMessage(signal, server.sessions().totals));
  return 0;
}

/** What serve says when it stops: sessions, calls, and the spend in the reports' money format (`$0.000354`, never `$0.0004`). */
export function stoppedMessage(signal: string, totals: { sessions: number; calls: number; costPico: string }): string {
  return `loopcost serve: stopped on ${signal}: ${counted(totals.sessions, 'session')}, ${counted(totals.calls, 'call')}, ${formatUsd(BigInt(totals.costPico))} spent\n`;
}
