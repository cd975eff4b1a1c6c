/**
 * A path not found that holds a backslash (`..\traces\run.jsonl`, a Windows habit): here a backslash is part of
 * a name, not a separator, so the hint says to write `/`. Pure: the readers' not-found errors add it
 * (inputErrors.ts unreadable, a scenario's `traces:` entry: scenario/traceEntryFiles.ts).
 */
export const BACKSLASH_HINT = 'write it with / — a backslash is part of a file name here, not a separator';

/** `hint`, and the backslash hint when `path` holds a backslash. */
export function withBackslashHint(hint: string, path: string): string {
  return path.includes('\\') ? `${hint}; ${BACKSLASH_HINT}` : hint;
}
