/**
 * The nesting limit of every reader (MAX_NESTING_DEPTH, src/io/limits.ts) applied to scenario files, as
 * cassettes and SWE-agent's args.yaml apply it: the text is scanned before any parser sees it (js-yaml's
 * quick reading, `yaml`'s, a JSON scenario's; src/io/yamlDepth.ts), so a file nested hundreds of levels
 * deep is one UserError naming its line, not a parser's stack overflow. A parser that still runs out of
 * stack (the scan counting short) gives the same error; a parsed value past the limit names its path, cut
 * short when long (`description[0][0]…[0] (257 levels)`).
 */
import { UserError } from '../errors.js';
import { MAX_NESTING_DEPTH } from '../io/limits.js';
import { yamlDepthProblem } from '../io/yamlDepth.js';

const HINT = 'no scenario nests this deep: the file is damaged or made up; see docs/scenarios.md';
const MESSAGE = `nests deeper than ${MAX_NESTING_DEPTH} levels of mappings and lists`;

/** Refuses scenario text that nests past the limit, naming the line where it does; before any parser reads it. */
export function checkScenarioDepth(text: string, file: string): void {
  const problem = yamlDepthProblem(text);
  if (problem !== undefined) throw new UserError({ file, line: problem.line, code: 'too_deep', message: MESSAGE, hint: HINT });
}

/** The error for a parser that ran out of stack on the file. */
export function parserTooDeep(file: string): UserError {
  return new UserError({ file, code: 'too_deep', message: `${MESSAGE} (more than the parser can follow)`, hint: HINT });
}

/** Path segments shown at each end of a long path. */
const SHOWN = 3;

/** A path as `pathPastDepth` names it (`$.description[0][0]…`), without the `$`, its middle cut when long. */
export function shortDepthPath(path: string): string {
  const segments = path.replace(/^\$\.?/, '').match(/\.?[^.[]+|\[\d+\]/g) ?? [];
  if (segments.length <= 2 * SHOWN + 1) return segments.join('').replace(/^\./, '');
  const head = segments.slice(0, SHOWN).join('').replace(/^\./, '');
  return `${head}…${segments.slice(-1).join('')} (${segments.length} levels)`;
}

/** The error for a parsed value nesting past the limit at `path`. */
export function valueTooDeep(file: string, path: string): UserError {
  return new UserError({ file, field: shortDepthPath(path), code: 'too_deep', message: MESSAGE, hint: HINT });
}
