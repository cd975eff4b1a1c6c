/**
 * The failures against a baseline besides drifted figures, removed brakes and a risen worst case, said
 * where the report says those: brakes loosened (brakesLoosened.ts) and scenarios checked on fewer runs
 * (runsDropped.ts) — a line each per scenario after the drift table, their counts in the verdict line, a
 * JUnit testcase each — and, when the check wrote the compared baseline again, that it accepted them.
 */
import type { Drift } from './baseline.js';
import { brakesLoosenedLines, loosenedText, loosenedVerdict } from './brakesLoosened.js';
import { droppedText, runsDroppedLines, runsDroppedVerdict } from './runsDropped.js';
import { acceptedVerdict, acceptText } from './gateCounts.js';

/** The lines after the drift table: brakes loosened, then runs dropped. */
export function gateLines(drift: Drift): string[] {
  return [...brakesLoosenedLines(drift), ...runsDroppedLines(drift)];
}

/** `, fewer runs than the baseline in 1 scenario (accepted: …)`: the verdict line's end (`, 1 brake loosened` goes beside the brakes removed: loosenedVerdict). */
export function gateVerdict(drift: Drift | undefined): string {
  return `${runsDroppedVerdict(drift)}${acceptedVerdict(drift)}`;
}

export { loosenedVerdict };

/** A JUnit testcase: its name and failure, as junit.ts writes them. */
export interface GateCase {
  name: string;
  failure: { type: string; message: string; text: string };
}

/** One scenario's JUnit testcases for these failures: `baseline brake max-repeat` (type `brake`), `baseline synthetic runs` (type `runs`). */
export function gateCases(drift: Drift | undefined, scenario: string): GateCase[] {
  if (drift === undefined) return [];
  const loosened = (drift.brakesLoosened ?? []).filter((l) => l.scenario === scenario).map((l): GateCase => {
    const message = `brake loosened: ${loosenedText([l])}`;
    const why = 'a brake holds less than in the baseline: the runs at hand may not reach the difference, the next one may';
    return { name: `baseline brake ${l.setting === 'brakes' ? '' : `${l.setting} `}${l.brake}`, failure: { type: 'brake', message, text: `${scenario}\n${message}\n${why}; ${acceptText(drift, 'tighten it back')}\n` } };
  });
  const dropped = (drift.runsDropped ?? []).filter((d) => d.scenario === scenario).map((d): GateCase => {
    const message = `fewer runs than the baseline: ${droppedText([d])}`;
    return { name: `baseline ${d.runs}`, failure: { type: 'runs', message, text: `${scenario}\n${message}\na regression the baseline's runs would show may not show in fewer; ${acceptText(drift, 'run as many again')}\n` } };
  });
  return [...loosened, ...dropped];
}
