/**
 * What the yaml parser throws for a damaged document besides its own parse errors, as a UserError:
 * the `yaml` package throws a bare RangeError for an escape that names no Unicode character ("\U1e308…"
 * in a double-quoted string: `Invalid code point 506498846`), found by the damaged-input property test.
 * Every reader of YAML (cassettes, scenario files, SWE-agent's args.yaml) calls this from its catch.
 * And the parse errors of a document said as one issue at its line and column (yamlSyntaxIssue).
 */
import { UserError, type InputIssue } from '../errors.js';

/**
 * A parser out of stack on a document nested too deep: a RangeError, or the SyntaxError `yaml` throws when
 * it cannot compile a regular expression that deep (`Invalid regular expression: … Maximum call stack`).
 * Every reader that parses recursively (cassettes, native and JSON readers, scenario files) asks this.
 */
export function isStackOverflow(error: unknown): boolean {
  return (error instanceof RangeError || error instanceof SyntaxError) && /call stack/i.test(error.message);
}

export function isInvalidCodePoint(error: unknown): error is RangeError {
  return error instanceof RangeError && /invalid code point/i.test(error.message);
}

/** The UserError for a bad escape, or undefined when `error` is something else. */
export function yamlEscapeError(error: unknown, file: string, hint: string): UserError | undefined {
  if (!isInvalidCodePoint(error)) return undefined;
  return new UserError({ file, code: 'invalid_yaml', message: `not valid YAML (an escape in a double-quoted string names no Unicode character: ${error.message})`, hint });
}

/** What a parse error of the `yaml` package gives (YAMLParseError): its code, message and source offsets. */
export interface YamlParseProblem {
  code: string;
  message: string;
  pos?: [number, number];
}

/** Where a source offset is: 1-based line and column (the `yaml` package's LineCounter.linePos). */
export type LinePosition = (offset: number) => { line: number; col: number };

/**
 * A document's parse errors as ONE issue: the first, with its line and column. Those after it mostly
 * follow from it (one wrong indentation is five errors: `Sequence item without - indicator`, then
 * `Nested mappings are not allowed…` and `Implicit keys need to be on a single line` on each line
 * below), so they are counted, not listed. Several documents in one file (`---` between them) are said
 * as such, with how many: the package's own words name its API (`please use YAML.parseAllDocuments()`).
 * `documents`: how many the text holds, asked only for that error. `one`: what the file is (`a scenario file`).
 */
export function yamlSyntaxIssue(errors: readonly YamlParseProblem[], at: { file: string; text: string; hint: string; linePos: LinePosition; documents: () => number; one: string }): InputIssue {
  const first = errors[0]!;
  // An error found at the end of the text (a bracket or quote never closed) is placed just past its last character, not on the blank line after it.
  const place = first.pos === undefined ? undefined : at.linePos(Math.min(first.pos[0], at.text.trimEnd().length));
  const line = place === undefined ? {} : { line: place.line };
  if (first.code === 'MULTIPLE_DOCS') {
    const n = at.documents();
    return { file: at.file, ...line, code: 'multiple_yaml_documents', message: `holds ${n} YAML documents (\`---\` starts each); ${at.one} is one document`, hint: 'split it into files, one document each' };
  }
  const more = errors.length - 1;
  const after = more === 0 ? '' : `; ${more} more YAML ${more === 1 ? 'error' : 'errors'} after it, which may follow from it: fix this one first`;
  const column = place === undefined ? '' : ` at column ${place.col}`;
  return { file: at.file, ...line, code: 'invalid_yaml', message: `not valid YAML${column}: ${first.message.split('\n')[0]}${after}`, hint: at.hint };
}
