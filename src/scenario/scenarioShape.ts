/**
 * One message for a .yaml or .yml input that is empty or holds no mapping (a string, a list, a number):
 * every command says it the same way, whether it was reading the file as a scenario (generate, check, the
 * library's loaders) or as a trace (replay, project, sweep, calibrate, serve: src/import/formats.ts asks
 * this before it says "no trace format"), for such a file is neither. Light: the text is read by js-yaml
 * only when the file was about to be refused anyway.
 */
import type { InputIssue } from '../errors.js';
import { shownName } from '../shownName.js';
import { mappingRead, quickYamlValue, type QuickRead } from './fastYaml.js';

const YAML_NAME = /\.ya?ml$/i;

const SHAPE_HINT = 'a scenario file is a mapping of fields that starts with `scenario: loopcost.scenario/1`, see docs/scenarios.md; a VCR cassette is a mapping with `interactions:`';

/** Lines that hold no value: blank, comments, document markers and directives. */
const NO_VALUE_LINE = /^\s*(#.*)?$|^(---|\.\.\.)\s*(#.*)?$|^%/;

/** The value said as a message does (`the string "just a string"`, `a list of 2 entries`). */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string "${shownName(value.length > 60 ? `${value.slice(0, 60)}…` : value)}"`;
  if (Array.isArray(value)) return value.length === 1 ? 'a list of 1 entry' : `a list of ${value.length} entries`;
  if (typeof value === 'number' || typeof value === 'boolean') return `the ${typeof value} ${String(value)}`;
  return `a ${typeof value}`;
}

/** The 1-based line of the first line that holds a value. */
function firstValueLine(lines: readonly string[]): number | undefined {
  const at = lines.findIndex((line) => !NO_VALUE_LINE.test(line));
  return at < 0 ? undefined : at + 1;
}

/**
 * The issue for a .yaml or .yml file whose text is empty (nothing but blanks, comments and `---`) or one
 * YAML document that is no mapping; undefined for any other file or text (a mapping, a YAML error: the
 * readers say those). `quick`: js-yaml's reading of the text when the caller made it (load.ts), else it is
 * made here.
 */
export function shapelessYamlIssue(text: string, file: string, quick?: { read: QuickRead }): InputIssue | undefined {
  if (!YAML_NAME.test(file)) return undefined;
  const body = text.replace(/^\uFEFF/, '');
  const line = firstValueLine(body.split(/\r?\n/));
  if (line === undefined) return { file, code: 'empty_yaml', message: 'is empty', hint: SHAPE_HINT };
  // quickYamlValue drops a leading byte order mark: the text's reading is the body's.
  const read = quick === undefined ? quickYamlValue(body) : quick.read;
  if (read === undefined || mappingRead(read) !== undefined) return undefined;
  return { file, line, code: 'not_a_mapping', message: `is ${describe(read.value)}, not a mapping of fields`, hint: SHAPE_HINT };
}
