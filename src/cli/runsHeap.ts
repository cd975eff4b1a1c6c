/**
 * The CLI shell's side of src/flags/runsMemory.ts: the heap Node was given (V8's heap_size_limit, which
 * --max-old-space-size sets) read here, where `node:*` may be, and a run count whose kept results would
 * not fit refused before any run, naming --runs or the scenario file's `runs:` line.
 */
import { getHeapStatistics } from 'node:v8';
import { UserError } from '../errors.js';
import { keptRunsIssue, type KeepingCommand, type RunsPlace } from '../flags/runsMemory.js';
import { scenarioLineOf } from '../scenario/scenarioLines.js';

interface RunsOf {
  scenario: { source: string };
  settings: { runs: number };
}

/** Where the runs of `largest` were given: --runs when the user gave it, else its file's `runs:`. */
function placeOf(largest: RunsOf, runsGiven: boolean): RunsPlace {
  if (runsGiven) return { file: '<command line>', field: '--runs' };
  const line = scenarioLineOf(largest.scenario, ['runs']);
  return { file: largest.scenario.source, ...(line === undefined ? {} : { line }), field: 'runs' };
}

/**
 * Refuses (exit 2, before any run) scenario runs `command` could not keep in this heap. `pooled`: the
 * command holds every scenario's runs at once (replay, whatif, project), so they add up; else (check) one
 * scenario's at a time, the largest counted.
 */
export function refuseRunsPastHeap(command: KeepingCommand, inputs: readonly RunsOf[], options: { runsGiven: boolean; pooled: boolean; resultsPerRun?: number; heapLimitBytes?: number }): void {
  if (inputs.length === 0) return;
  const largest = inputs.reduce((a, b) => (b.settings.runs > a.settings.runs ? b : a));
  const runs = options.pooled ? inputs.reduce((n, input) => n + input.settings.runs, 0) : largest.settings.runs;
  const { heapLimitBytes, resultsPerRun } = options;
  refuseCountPastHeap(command, runs, { place: placeOf(largest, options.runsGiven), ...(heapLimitBytes === undefined ? {} : { heapLimitBytes }), ...(resultsPerRun === undefined ? {} : { resultsPerRun }) });
}

/** Refuses (exit 2, before any run) `runs` runs `command` could not keep in this heap, the count given at `place` (fit --report: --runs). */
export function refuseCountPastHeap(command: KeepingCommand, runs: number, options: { place: RunsPlace; resultsPerRun?: number; heapLimitBytes?: number }): void {
  const heapLimitBytes = options.heapLimitBytes ?? getHeapStatistics().heap_size_limit;
  const issue = keptRunsIssue({ command, runs, heapLimitBytes, place: options.place, ...(options.resultsPerRun === undefined ? {} : { resultsPerRun: options.resultsPerRun }) });
  if (issue !== undefined) throw new UserError(issue);
}
