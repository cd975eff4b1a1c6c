import { counted } from '../plural.js';
import { shortenPaths } from './text.js';
import type { ReportWarning } from './warnings.js';

/** The runs whose importer left notes (header.importedFrom.notes), and the first of those notes with its run. */
export interface ImportNotesSeen {
  runs: number;
  notes: number;
  first?: { source: string; note: string };
}

/** A note that only places the run in its file (`run 2 of 3 in the file`, import/http/build.ts): nothing about its figures. */
const RUN_OF_FILE = /^run \d+ of \d+ in the file$/;

/** `dir/live.jsonl#main.1` → `live#main.1`, as a table of runs names it (text.ts shortenPaths): a path does not wrap. */
function shortSource(source: string): string {
  return shortenPaths([source]).short[0]!;
}

/** Counts, run by run, the import notes a report's figures rest on (ImportNotesSeen). */
export class ImportNotesTally {
  private readonly seen: ImportNotesSeen = { runs: 0, notes: 0 };

  /** Notes one run's import notes (none, or only its place in its file: nothing). */
  add(source: string, given: readonly string[] | undefined): void {
    if (given === undefined) return; // (most runs: a sweep streams millions)
    const notes = given.filter((note) => !RUN_OF_FILE.test(note));
    if (notes.length === 0) return;
    this.seen.runs += 1;
    this.seen.notes += notes.length;
    if (this.seen.first === undefined) this.seen.first = { source: shortSource(source), note: notes[0]! };
  }

  /** Another tally's runs (`seen`, of runs read after this one's): its first note is this one's if it has none yet. */
  addSeen(seen: ImportNotesSeen): void {
    this.seen.runs += seen.runs;
    this.seen.notes += seen.notes;
    if (this.seen.first === undefined && seen.first !== undefined) this.seen.first = { ...seen.first };
  }

  /** What it counted (a copy). */
  counted(): ImportNotesSeen {
    return { ...this.seen, ...(this.seen.first === undefined ? {} : { first: { ...this.seen.first } }) };
  }

  warnings(): ReportWarning[] {
    return importNotesWarnings(this.seen);
  }
}

/**
 * One warning when runs converted from another format carry their importer's notes (a line cut from a
 * transcript still being written, output tokens that are lower bounds, …): the figures may rest on them,
 * yet a table shows none. How many runs, the first note, and where to read them all.
 */
export function importNotesWarnings(seen: ImportNotesSeen): ReportWarning[] {
  if (seen.runs === 0 || seen.first === undefined) return [];
  // One note is shown whole; of more, say where to read them all.
  const rest = seen.notes > 1 ? `; to see all ${seen.notes}: --format json (runs[].importNotes), or loopcost import FILE (header.importedFrom.notes)` : '';
  return [
    {
      code: 'import_notes',
      message:
        `${counted(seen.runs, 'run')} ${seen.runs === 1 ? 'carries' : 'carry'} notes from ${seen.runs === 1 ? 'its' : 'their'} importer that may bear on the figures, ` +
        `the first (${seen.first.source}): ${seen.first.note}${rest}`,
    },
  ];
}
