/** Cutting text down for error messages and notes. */

/** Longest tool error / failure text the trajectory importers keep (a deterministic prefix, so equal failures compare equal). */
export const MAX_ERROR_TEXT = 200;

/** Cut to MAX_ERROR_TEXT characters on one line (whitespace runs become one space; `…` marks a cut). */
export function shortText(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= MAX_ERROR_TEXT ? oneLine : `${oneLine.slice(0, MAX_ERROR_TEXT - 1)}…`;
}

/** The first `max` characters, with `…` appended when cut (line breaks kept). */
export function clip(text: string, max = 500): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The last line with non-blank text, trimmed (where a traceback names its exception). */
export function lastNonEmptyLine(text: string): string | undefined {
  const lines = text.split(/\r?\n/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (line !== '') return line;
  }
  return undefined;
}
