/**
 * The failures against a baseline besides drifted figures, removed brakes and a risen worst case, said
 * where the report says those: brakes loosened (brakesLoosened.ts) and scenarios checked on fewer runs
 * (runsDropped.ts) — a line each per scenario after the drift table, their counts in the verdict line, a
 * JUnit testcase each (and one per brake removed, and per mode of it: `repeat-mode` of `max-repeat`) — and,
 * when the check wrote the compared baseline again, that it accepted them. A JUnit failure says what the report's line says of its finding (`…Says`). Each
 * brake the baseline had and the check still holds (the same or tighter) is a passing testcase of the same
 * name, so a CI dashboard tracks one test per brake across runs.
 */
import type { Drift } from './baseline.js';
import { brakesLoosenedLines, heldText, loosenedSays, loosenedText, loosenedVerdict } from './brakesLoosened.js';
import { brakeLabel, removedSays, removedText, removedWithText } from './brakesRemoved.js';
import { droppedSays, droppedText, runsDroppedLines, runsDroppedVerdict } from './runsDropped.js';
import { acceptedVerdict } from './gateCounts.js';
import { modelSwitchLines } from './contextLimitLoosened.js';

/** The lines after the drift table: brakes loosened, a model switch a baseline written before could not judge (no failure), then runs dropped. */
export function gateLines(drift: Drift): string[] {
  return [...brakesLoosenedLines(drift), ...modelSwitchLines(drift), ...runsDroppedLines(drift)];
}

/** `, fewer runs than the baseline in 1 scenario (accepted: …)`: the verdict line's end (`, 1 brake loosened` goes beside the brakes removed: loosenedVerdict). */
export function gateVerdict(drift: Drift | undefined): string {
  return `${runsDroppedVerdict(drift)}${acceptedVerdict(drift)}`;
}

export { loosenedVerdict };

/** A JUnit testcase: its name and failure (or, passing, its note), as junit.ts writes them. */
export interface GateCase {
  name: string;
  failure?: { type: string; message: string; text: string };
  note?: string;
}

/** A JUnit testcase of one finding: its message, then what the report's line says of it (`says`). */
function findingCase(scenario: string, of: { name: string; type: string; message: string; says: string }): GateCase {
  return { name: of.name, failure: { type: of.type, message: of.message, text: `${scenario}\n${of.message}\n${of.says}\n` } };
}

/**
 * One scenario's JUnit testcases for these failures and its brakes: `baseline brake max-repeat` (failing, type
 * `brake`, when removed or loosened, and its modes with it when removed; else passing with its values:
 * brakesLoosened.ts heldText), `baseline synthetic runs` (type `runs`).
 */
export function gateCases(drift: Drift | undefined, scenario: string): GateCase[] {
  if (drift === undefined) return [];
  const own = <T extends { scenario: string }>(list: readonly T[] | undefined) => (list ?? []).filter((entry) => entry.scenario === scenario);
  return [
    ...own(drift.brakesRemoved).map((r) => findingCase(scenario, { name: `baseline brake ${brakeLabel(r)}`, type: 'brake', message: `brake removed: ${removedText([r])}, off now`, says: removedSays(drift, [r]) })),
    ...own(drift.removedWithBrake).map((m) => findingCase(scenario, { name: `baseline brake ${brakeLabel(m)}`, type: 'brake', message: `brake removed: ${removedWithText(m)}, off now`, says: removedSays(drift, [m]) })),
    ...own(drift.brakesLoosened).map((l) => findingCase(scenario, { name: `baseline brake ${brakeLabel(l)}`, type: 'brake', message: `brake loosened: ${loosenedText([l])}`, says: loosenedSays(drift, [l]) })),
    ...own(drift.brakesHeld).map((h) => ({ name: `baseline brake ${brakeLabel(h)}`, note: heldText(h) })),
    ...own(drift.runsDropped).map((d) => findingCase(scenario, { name: `baseline ${d.runs}`, type: 'runs', message: `fewer runs than the baseline: ${droppedText([d])}`, says: droppedSays(drift, [d]) })),
  ];
}
