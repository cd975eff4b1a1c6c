/**
 * Text from input (file names, model names, task ids, statuses, error messages) made safe and short for
 * a terminal: control characters and ANSI escape sequences are shown escaped, never sent raw, and paths
 * are shortened to the part that differs.
 */

import { sanitizeForTerminal, sanitizeLinesForTerminal } from '../errors.js';
import { minOf } from '../metrics/extremes.js';

const HAS_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const PRINTABLE_ASCII = /^[\u0020-\u007e]*$/;

/** One table cell: every control character (ESC of an ANSI sequence, newline, tab, CR) shown as `\x1b`, `\n`, … */
export function printableCell(text: string): string {
  return HAS_CONTROL.test(text) ? sanitizeForTerminal(text) : text;
}

/** Multi-line text (a message): newlines kept, every other control character escaped. */
export const printableText: (text: string) => string = sanitizeLinesForTerminal;

/**
 * Columns a string takes on a terminal: one per code point, two for East Asian wide and full-width
 * characters and most emoji, none for combining marks and zero-width characters. (Cells are made
 * printable first, so there are no control characters to measure.)
 */
export function displayWidth(text: string): number {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) {
      ascii = false;
      break;
    }
  }
  if (ascii) return text.length;
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    if (code > 0xffff) i++;
    if (code < 0x300) width += 1;
    else if ((code >= 0x300 && code <= 0x36f) || (code >= 0x200b && code <= 0x200f) || code === 0xfe0f) continue;
    else if (isWide(code)) width += 2;
    else width += 1;
  }
  return width;
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/** `text` cut to `width` columns with `…` in the middle (keeps both the start and the distinctive end of a name). */
export function truncateMiddle(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 1) return '…'.slice(0, width);
  if (PRINTABLE_ASCII.test(text)) {
    const tail = Math.ceil((width - 1) / 2);
    return `${text.slice(0, width - 1 - tail)}…${text.slice(text.length - tail)}`;
  }
  const chars = [...text];
  const keep = width - 1;
  const tail = Math.ceil(keep / 2);
  let head = keep - tail;
  let out = `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
  // Wide characters: drop from the head until it fits.
  while (displayWidth(out) > width && head > 0) {
    head -= 1;
    out = `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
  }
  return out;
}

/**
 * Paths shortened to the part that differs: the directory every path shares is cut off and returned as
 * `prefix` (with its trailing `/`), and so is an extension every file name ends with (`suffix`, e.g.
 * `.traj.json.gz`), so a table of runs shows `deepseek_chat_dev/sqlfluff__sqlfluff-1517` under a line
 * naming `../shared/traces/mini-swe-agent/…​.traj.json.gz`. A run within a file (`x.jsonl.gz#main.1`,
 * `a.yaml#3`) keeps its `#…` after its file's name, the extension cut before it (`x#main.1`); `runs`
 * then says so (`all`: every name has one, `some`), for the line above the table (sourcesLine).
 */
export function shortenPaths(paths: readonly string[]): { prefix: string; suffix: string; short: string[]; runs?: RunsInFiles } {
  const distinct = [...new Set(paths)];
  if (distinct.length < paths.length) {
    const { short, ...shortened } = shortenPaths(distinct);
    const byPath = new Map(distinct.map((path, i) => [path, short[i]!]));
    return { ...shortened, short: paths.map((path) => byPath.get(path)!) };
  }
  if (paths.length === 0) return { prefix: '', suffix: '', short: [] };
  const split = paths.map((path) => path.split('/'));
  let shared = minOf(split.map((parts) => parts.length - 1));
  for (let i = 0; i < shared; i++) {
    const part = split[0]![i];
    if (split.some((parts) => parts[i] !== part)) {
      shared = i;
      break;
    }
  }
  const prefix = shared === 0 ? '' : `${split[0]!.slice(0, shared).join('/')}/`;
  const rest = split.map((parts) => splitRun(parts.slice(shared).join('/')));
  const suffix = sharedExtension(rest.map(([file]) => file));
  const short = rest.map(([file, run]) => file.slice(0, file.length - suffix.length) + run);
  const withRun = rest.filter(([, run]) => run !== '').length;
  return { prefix, suffix, short, ...(suffix === '' || withRun === 0 ? {} : { runs: withRun === rest.length ? 'all' : 'some' }) };
}

/** The extension (from a `.` in the last path segment) every name ends with, leaving each name non-empty. */
function sharedExtension(names: readonly string[]): string {
  const first = names[0]!;
  const lastSegment = first.slice(first.lastIndexOf('/') + 1);
  for (let at = lastSegment.indexOf('.'); at > 0; at = lastSegment.indexOf('.', at + 1)) {
    const ext = lastSegment.slice(at);
    if (names.every((name) => name.endsWith(ext) && name.length > ext.length && !name.endsWith(`/${ext}`))) return ext;
  }
  return '';
}

/** Whether shortened names carry a run within their file (`#…`) after the name the extension was cut from: every name, or some. */
export type RunsInFiles = 'all' | 'some';

/** `[file, '#run']`: a name split at the first `#` of its last segment (`['x.jsonl.gz', '#main.1']`); `[name, '']` without one. */
export function splitRun(name: string): [string, string] {
  const segment = name.lastIndexOf('/') + 1;
  const at = name.indexOf('#', segment);
  return at <= segment ? [name, ''] : [name.slice(0, at), name.slice(at)];
}

/**
 * `lead` + `text` wrapped at `separator` (a space by default) to `width` columns, continuation lines
 * indented under the text; a word longer than a line stays whole. Ends with a newline.
 */
export function wrapLine(lead: string, text: string, width: number, separator = ' '): string {
  const indent = ' '.repeat(lead.length);
  const lines: string[] = [];
  // A line broken at a separator other than a space ends with its mark (` ·`): room is kept for it.
  const mark = separator === ' ' ? '' : separator.trimEnd();
  let line = lead;
  const words = text.split(separator);
  words.forEach((word, i) => {
    const candidate = line === lead || line === indent ? line + word : `${line}${separator}${word}`;
    const room = i === words.length - 1 ? width : width - mark.length;
    if (displayWidth(candidate) > room && line !== lead && line !== indent) {
      lines.push(line + mark);
      line = indent + word;
    } else line = candidate;
  });
  lines.push(line);
  // A piece between separators still too wide (a long context list, a brake spec) is broken after its spaces and commas.
  const fitted = separator === ' ' ? lines : lines.flatMap((l) => (displayWidth(l) > width ? breakAfterSpacesAndCommas(l, { indent: lead.length, width, mark }) : [l]));
  return `${fitted.join('\n')}\n`;
}

/**
 * A line wider than `width` as lines broken after a space or a comma, each continued under the first
 * `indent` columns; a separator's `mark` ending the line stays with the word before it.
 */
function breakAfterSpacesAndCommas(line: string, layout: { indent: number; width: number; mark: string }): string[] {
  const { indent, width, mark } = layout;
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  let current = line.slice(0, indent);
  const parts = line.slice(indent).split(/(?<=[ ,])/);
  if (mark !== '' && parts.length > 1 && parts[parts.length - 1] === mark.trim()) parts[parts.length - 2] += parts.pop()!;
  for (const part of parts) {
    if (current.trim() !== '' && displayWidth((current + part).trimEnd()) > width) {
      lines.push(current.trimEnd());
      current = pad;
    }
    current += part;
  }
  lines.push(current.trimEnd());
  return lines;
}

/**
 * Names shown as `#1`, `#2`, … with a legend above the table, one name a line wrapped at `width` (at its
 * commas): where names too long for their columns would cut the table or the names (whatif's settings,
 * curve's strategies side by side).
 */
export function numberedLegend(names: readonly string[], width: number): { labels: string[]; legend: string } {
  const labels = names.map((_, i) => `#${i + 1}`);
  return { labels, legend: names.map((name, i) => wrapLine(`${labels[i]} `, printableCell(name), width, ',')).join('') };
}

/** A token count as every text table shows it: `1,749,904` (JSON and CSV keep the number). */
export function tokenCount(tokens: number): string {
  return tokens.toLocaleString('en-US');
}
