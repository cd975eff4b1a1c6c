/**
 * What `project` says of each part of its runs (cli/actions/projectParts.ts): how the recorded runs, each
 * scenario file's runs (or --tree's session trees) ended under the settings they took, and what they cost
 * a run. A projection's spend is only as good as the stops behind it: a brake that kills most runs of a
 * part (a timeout meant for another agent) is said here, not only folded into the mean.
 */
import type { StopReason } from '../brakes/stopReasons.js';
import { counted } from '../plural.js';
import { formatUsdNumber } from './money.js';
import type { ReportSettings } from './settings.js';

export interface ProjectPart {
  /** `recorded`: the trace files' runs (the flags' settings alone); `synthetic`: a scenario file's runs (its own, the flags on top); `trees`: --tree's session trees. */
  kind: 'recorded' | 'synthetic' | 'trees';
  /** The scenario file (`synthetic`). */
  source?: string;
  runs: number;
  /** `recorded`: of its runs, the traces `loopcost generate` wrote (synthetic runs replayed as recordings are), where any (generatedRuns.ts). */
  generated?: number;
  /** Runs whose stop reason is `completed`. */
  completed: number;
  /** Every stop reason, in the kernel's order, 0 where none. */
  stopReasons: Record<StopReason, number>;
  meanCostPerRunUsd: number;
  /** `synthetic`: the settings its runs took (the file's, the flags on top), as replay's `settings.scenarios[].spec`. */
  settings?: Omit<ReportSettings, 'model'>;
}

/** `38 recorded runs` (`12 generated runs`, `50 runs of traces (38 recorded, 12 generated)`), `scenarios/x.yaml's 200 runs`, `12 session trees`. */
export function partName(part: Pick<ProjectPart, 'kind' | 'source' | 'runs' | 'generated'>): string {
  if (part.kind === 'synthetic') return `${part.source}'s ${counted(part.runs, 'run')}`;
  if (part.kind === 'trees') return counted(part.runs, 'session tree');
  const generated = part.generated ?? 0;
  if (generated === 0) return counted(part.runs, 'recorded run');
  return generated === part.runs ? counted(part.runs, 'generated run') : `${counted(part.runs, 'run')} of traces (${part.runs - generated} recorded, ${generated} generated)`;
}

/** `completed 2, repeat 4, trace_end 32`: completions always (0 too), then each other stop that happened. */
function stopsText(part: ProjectPart): string {
  const others = Object.entries(part.stopReasons).filter(([reason, n]) => reason !== 'completed' && n > 0);
  return [`completed ${part.completed}`, ...others.map(([reason, n]) => `${reason} ${n}`)].join(', ');
}

/** `How the runs ended: 38 recorded runs: completed 2, repeat 4, trace_end 32 ($0.0116 a run); …`. */
export function partsText(parts: readonly ProjectPart[]): string {
  return `How the runs ended under the brakes they took: ${parts.map((part) => `${partName(part)}: ${stopsText(part)} (${formatUsdNumber(part.meanCostPerRunUsd)} a run)`).join('; ')}.`;
}
