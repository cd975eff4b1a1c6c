/**
 * What `contexts` says of real-loop recordings that state the context strategy their loop ran under (header
 * `context`, replay/recordedStrategy.ts). Each strategy's row compares them from their full history (the `full`
 * row is full history, not the run as it ran: replay/recordedCells.ts rebuiltInCell), so the rows' `vs first`
 * compares like with like; the `as recorded` rows, shown where some run states its strategy, hold each run as
 * its loop ran it, and a line under the table says so. Said as warnings: the runs rebuilt to full history
 * (`recorded_strategy_rebuilt`, as every command says it but of the rows' cache modes, naming the rows that rebuilt them), and the runs left
 * out of every row, a summary strategy's recordings, whose full history cannot be rebuilt
 * (`recorded_strategy_left_out`, naming their files and strategies); when every run is, the command is refused.
 */
import { counted } from '../../plural.js';
import { rebuiltStrategyWarnings, StatedStrategyTally, type StatedStrategies } from '../../report/recordedStrategyWarning.js';
import type { ReportWarning } from '../../report/warnings.js';
import type { ContextCell } from '../../replay/contexts.js';
import { rebuiltInCell, UNCOMPARED_REMEDY, uncomparedRecording, unrebuildableSpecOf } from '../../replay/recordedCells.js';
import { recordedContextPlace } from '../../replay/recordedStrategy.js';
import type { StrategyPlace } from '../../context/strategy.js';
import { someNames } from '../../someNames.js';
import type { Trace } from '../../trace/types.js';

/** A run left out of every row: where its recording states its summary strategy, and that strategy. */
export interface LeftOutRun {
  place: StrategyPlace;
  spec: string;
}

/** What one run adds (ContextsRecordedRuns.add): the strategy its recording states, and the cells that rebuilt it. */
export interface RecordedRunFacts {
  stated?: string;
  rebuiltCells: boolean[];
}

/** The run `trace` left out of every row, when its recording states a summary strategy (unrebuildableSpecOf); else undefined. */
export function leftOutRunOf(trace: Trace): LeftOutRun | undefined {
  const spec = unrebuildableSpecOf(trace);
  return spec === undefined ? undefined : { place: recordedContextPlace(trace), spec };
}

/** The facts of `trace` replayed under `cells` (replay/contexts.ts replayCells). */
export function recordedRunFacts(trace: Trace, cells: readonly ContextCell[]): RecordedRunFacts {
  return { ...(trace.header.context === undefined ? {} : { stated: trace.header.context.spec }), rebuiltCells: cells.map((cell) => rebuiltInCell(trace, cell)) };
}

function specsText(stated: StatedStrategies): string {
  return stated.map(([spec, n]) => `${spec} ×${n}`).join(', ');
}

export class ContextsRecordedRuns {
  private readonly stated = new StatedStrategyTally();
  private readonly rebuilt = new StatedStrategyTally();
  private readonly rebuiltRows = new Set<string>();
  private readonly leftOut: LeftOutRun[] = [];
  private runs = 0;

  constructor(private readonly cells: readonly ContextCell[]) {}

  addLeftOut(run: LeftOutRun): void {
    this.leftOut.push(run);
  }

  add(run: RecordedRunFacts): void {
    this.runs += 1;
    if (run.stated === undefined) return;
    this.stated.addCounted([[run.stated, 1]]);
    if (!run.rebuiltCells.includes(true)) return;
    this.rebuilt.addCounted([[run.stated, 1]]);
    run.rebuiltCells.forEach((rebuilt, i) => rebuilt && this.rebuiltRows.add(this.cells[i]!.context));
  }

  /** Whether the `as recorded` rows are shown: some run compared states the strategy its loop ran under. */
  showsAsRecorded(): boolean {
    return this.stated.counted() !== undefined;
  }

  /** The line under the table saying what the `as recorded` rows hold; undefined when they are not shown. */
  asRecordedLine(): string | undefined {
    const stated = this.stated.counted();
    if (stated === undefined) return undefined;
    const statedRuns = stated.reduce((sum, [, n]) => sum + n, 0);
    const none = this.runs - statedRuns;
    const others = none === 0 ? '' : `; ${counted(none, 'run')} ${none === 1 ? 'states' : 'state'} none: full history`;
    return `as recorded: each run as its loop ran it and was billed, under the strategy its recording states (${specsText(stated)}${others}); every other row replays each run's full history under the row's strategy (rebuilt where its recording states a strategy; the row of that same strategy is the run as it ran)`;
  }

  /** None of the runs read can be compared (each a summary strategy's recording): refused, naming the first and what to do. */
  checkSomeCompared(): void {
    const first = this.leftOut[0];
    if (this.runs > 0 || first === undefined) return;
    throw uncomparedRecording(first, this.leftOut.length - 1);
  }

  warnings(): ReportWarning[] {
    const rows = [...new Set(this.cells.map((cell) => cell.context))].filter((row) => this.rebuiltRows.has(row));
    // Said of the rows' cache modes: no row replays a run with the cache as recorded.
    const cacheModes = [...new Set(this.cells.map((cell) => cell.cache))];
    return [...rebuiltStrategyWarnings(this.rebuilt.counted(), cacheModes).map((w) => ({ ...w, message: `${w.message}; rebuilt in the ${rows.length === 1 ? 'row' : 'rows'} ${rows.join(', ')}` })), ...this.leftOutWarnings()];
  }

  private leftOutWarnings(): ReportWarning[] {
    const n = this.leftOut.length;
    if (n === 0) return [];
    const specs = new StatedStrategyTally();
    for (const run of this.leftOut) specs.addCounted([[run.spec, 1]]);
    const files = this.leftOut.map((run) => run.place.file);
    return [
      {
        code: 'recorded_strategy_left_out',
        message: `${counted(n, 'run')} (${someNames(files)}) recorded by the real loop under a summary strategy ${n === 1 ? 'its recording states' : 'their recordings state'} (${specsText(specs.counted()!)}) ${n === 1 ? 'is' : 'are'} left out of every row: ${n === 1 ? 'its' : 'their'} summaries replaced the steps they dropped, so ${n === 1 ? 'its' : 'their'} full history cannot be rebuilt to compare under the strategies; ${UNCOMPARED_REMEDY}`,
      },
    ];
  }
}
