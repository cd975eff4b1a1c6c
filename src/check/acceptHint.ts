/**
 * The drift's `hint`: what to do when a figure drifted, a brake was removed or loosened, runs were dropped, or a
 * scenario is new, gone or renamed against the baseline — write it again with the same check. Pure.
 */
import { shellWord } from '../report/settings.js';
import type { DriftRow, DriftStatus } from './baseline.js';

/** `to accept an intended change, write the baseline again: …`, when a figure drifted or a scenario is new, gone or renamed. */
export function acceptHint(file: string, rows: readonly DriftRow[], gate: { removed: number; loosenedOrFewer: number; renamed: number }): string | undefined {
  const has = (status: DriftStatus) => rows.some((row) => row.status === status);
  const changed = has('drift') || has('looser') || has('budget binds') || gate.removed + gate.loosenedOrFewer > 0;
  const why = [changed ? `accept an intended change${gate.removed > 0 ? ' (a brake removed on purpose too)' : ''}` : '', has('new') ? 'start tracking a new scenario' : '', has('gone') ? 'drop a scenario removed on purpose' : '', gate.renamed > 0 ? 'key a renamed scenario by its new path' : ''].filter((part) => part !== '');
  if (why.length === 0) return undefined;
  const what = why.length === 1 ? why[0] : `${why.slice(0, -1).join(', ')} or ${why[why.length - 1]}`;
  return `to ${what}, write the baseline again: run the same check with --update-baseline ${shellWord(file)} (and commit the file)`;
}
