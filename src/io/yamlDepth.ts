/**
 * How deep a YAML text (JSON included) nests, found by one pass over the text before any parser sees it:
 * YAML parsers build values recursively, and a document nested some 800 levels (`[[[[…`, or `- ` under
 * `- ` under `- `) overflows their stack (`yaml`: RangeError, or a SyntaxError from a regular expression
 * it compiles on the way down) before their own limits could name it. The scan follows what makes a
 * level — an indented block mapping or sequence (`key:`, `- `, several on a line: `- - a: 1`), a flow
 * `[`/`{` — and steps over what cannot (quoted scalars, also over several lines; comments; block
 * scalars `|` `>`; brackets inside a plain scalar). It may count a level or two more than a parser
 * would (a plain scalar's continuation line that looks like a key), never hundreds; the parsed value is
 * still held to the exact limit by `pathPastDepth` (src/io/limits.ts), which names the path.
 */
import { MAX_NESTING_DEPTH } from './limits.js';

/** Where a text first nests past the limit: its 1-based line, and the levels open there. */
export interface YamlDepthProblem {
  line: number;
  depth: number;
}

/** An open block collection: the column of its `-` (a sequence) or of its first key (a mapping). */
interface Block {
  column: number;
  sequence: boolean;
}

interface ScanState {
  blocks: Block[];
  flow: number;
  /** The quote of a quoted scalar left open at the end of a line. */
  quote: '"' | "'" | undefined;
  /** Inside a block scalar: lines blank or indented past this column are its text. */
  blockScalarAbove: number | undefined;
  /** After a plain scalar in block context: lines indented past this column go on with its text. */
  plainAbove: number | undefined;
  /** In flow context, a node may start here (not inside a plain scalar going on from the line before). */
  flowTokenStart: boolean;
  deepest: number;
}

const isBlank = (ch: string | undefined) => ch === ' ' || ch === '\t';
const endsToken = (ch: string | undefined) => ch === undefined || ch === ' ' || ch === '\t';

function skipBlanks(line: string, at: number): number {
  while (isBlank(line[at])) at++;
  return at;
}

/** The end (exclusive) of the quoted scalar whose opening quote is at `start`; -1 when it goes on past the line. */
function quoteEnd(line: string, start: number, quote: '"' | "'"): number {
  for (let i = start + 1; i < line.length; i++) {
    if (quote === '"' && line[i] === '\\') i++;
    else if (line[i] === quote) {
      if (quote === "'" && line[i + 1] === "'") i++;
      else return i + 1;
    }
  }
  return -1;
}

function levels(state: ScanState): number {
  return state.blocks.length + state.flow;
}

/**
 * Whether the `:` or `?` at `i` of flow context is an indicator (a node may start after it), not a
 * character of a plain scalar (`a:b`, `?x`): followed by a blank, the line's end or a flow indicator,
 * or (a `:`) right after a quoted scalar or a collection that ended at `i` (`{"a":"b"}`).
 */
function flowIndicator(line: string, i: number, nodeEnd: number): boolean {
  const next = line[i + 1];
  if (endsToken(next) || next === ',' || next === '[' || next === ']' || next === '{' || next === '}') return true;
  return line[i] === ':' && nodeEnd === i;
}

/** Flow context from `at` to the end of the line (or until the outermost bracket closes). */
function scanFlow(line: string, at: number, state: ScanState, entering: boolean): void {
  let tokenStart = entering || state.flowTokenStart;
  /** Just past the last quoted scalar or closed collection: a `:` there may be adjacent (`"a":1`). */
  let nodeEnd = -1;
  for (let i = at; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"' || ch === "'") {
      if (!tokenStart) continue;
      const end = quoteEnd(line, i, ch);
      if (end < 0) return void ((state.quote = ch), (state.flowTokenStart = false));
      i = end - 1;
      nodeEnd = end;
      tokenStart = false;
    } else if (ch === '#' && (i === 0 || isBlank(line[i - 1]))) return;
    else if (ch === '[' || ch === '{') {
      state.flow++;
      state.deepest = Math.max(state.deepest, levels(state));
      tokenStart = true;
    } else if (ch === ']' || ch === '}') {
      state.flow = Math.max(0, state.flow - 1);
      if (state.flow === 0) return; // back in block context: what follows on the line opens nothing
      nodeEnd = i + 1;
      tokenStart = false;
    } else if (ch === ',') tokenStart = true;
    else if (ch === ':') tokenStart = flowIndicator(line, i, nodeEnd);
    // `?` is an indicator (an explicit key) only where a node starts; inside a plain scalar (`$? "#`) it is text.
    else if (ch === '?') tokenStart = tokenStart && flowIndicator(line, i, nodeEnd);
    else if (!isBlank(ch)) tokenStart = false;
  }
  state.flowTokenStart = tokenStart;
}

/** A block sequence entry or mapping key at `column`: the same collection as the one open there, or a new level. */
function openBlock(state: ScanState, column: number, sequence: boolean): void {
  const { blocks } = state;
  // A key at the column of a sequence (the sequence was a key's value at that column) ends that sequence.
  if (!sequence) while (blocks.length > 0 && blocks.at(-1)!.column === column && blocks.at(-1)!.sequence) blocks.pop();
  const top = blocks.at(-1);
  if (top === undefined || top.column < column || top.sequence !== sequence) blocks.push({ column, sequence });
  state.deepest = Math.max(state.deepest, levels(state));
}

/** The column just past a plain scalar's `: ` (it is a key), or -1 (a plain value). */
function keyEnd(line: string, at: number): number {
  for (let i = at; i < line.length; i++) {
    if (line[i] === '#' && isBlank(line[i - 1])) return -1;
    if (line[i] === ':' && endsToken(line[i + 1])) return i + 1;
  }
  return -1;
}

/** The nodes of one block-context line from `at`: entries, keys and the value that ends the line. */
function scanBlockLine(line: string, at: number, state: ScanState): void {
  let i = at;
  while (i < line.length) {
    const ch = line[i]!;
    if ((ch === '-' || ch === '?') && endsToken(line[i + 1])) {
      openBlock(state, i, ch === '-');
      i = skipBlanks(line, i + 1);
    } else if (ch === '[' || ch === '{') return scanFlow(line, i, state, true);
    else if (ch === '|' || ch === '>') return void (state.blockScalarAbove = state.blocks.at(-1)?.column ?? -1);
    else if (ch === '&' || ch === '!') {
      while (i < line.length && !isBlank(line[i])) i++; // an anchor or tag before the node
      i = skipBlanks(line, i);
    } else if (ch === '#') return;
    else {
      const quoted = ch === '"' || ch === "'" ? quoteEnd(line, i, ch) : undefined;
      if (quoted === -1) return void (state.quote = ch as '"' | "'");
      const end = keyEnd(line, quoted ?? i);
      if (end < 0 && quoted === undefined) return void (state.plainAbove = state.blocks.at(-1)?.column ?? -1);
      if (end < 0 || (quoted !== undefined && skipBlanks(line, quoted) !== end - 1)) return;
      openBlock(state, i, false);
      i = skipBlanks(line, end);
    }
  }
}

const DOCUMENT_MARKER = /^(---|\.\.\.)(\s|$)/;

/** One line in whatever context the lines before left open. */
function scanLine(line: string, state: ScanState): void {
  const indent = line.length - line.trimStart().length;
  if (state.blockScalarAbove !== undefined) {
    if (line.trim() === '' || (indent > state.blockScalarAbove && !DOCUMENT_MARKER.test(line))) return;
    state.blockScalarAbove = undefined;
  }
  if (state.plainAbove !== undefined) {
    const content = line.trimStart();
    if (content === '' || (indent > state.plainAbove && !content.startsWith('#'))) return;
    state.plainAbove = undefined;
  }
  let at = 0;
  if (state.quote !== undefined) {
    const end = quoteEnd(`${state.quote}${line}`, 0, state.quote);
    if (end < 0) return;
    state.quote = undefined;
    at = end - 1;
    if (state.flow === 0) return; // a key is never quoted over several lines: the rest is a comment
  }
  if (state.flow > 0) return scanFlow(line, at, state, false);
  const content = line.trimStart();
  if (content === '' || content.startsWith('#') || content.startsWith('%')) return;
  if (DOCUMENT_MARKER.test(line)) {
    state.blocks = [];
    return scanBlockLine(line, skipBlanks(line, 3), state);
  }
  while (state.blocks.length > 0 && state.blocks.at(-1)!.column > indent) state.blocks.pop();
  scanBlockLine(line, indent, state);
}

/** Scans `text` line by line, stopping at the first line past `maxDepth`: that line (0 when none) and the levels counted. */
function scan(text: string, maxDepth: number): { line: number; depth: number } {
  const state: ScanState = { blocks: [], flow: 0, quote: undefined, blockScalarAbove: undefined, plainAbove: undefined, flowTokenStart: true, deepest: 0 };
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n]!;
    scanLine(raw.endsWith('\r') ? raw.slice(0, -1) : raw, state);
    if (state.deepest > maxDepth) return { line: n + 1, depth: state.deepest };
  }
  return { line: 0, depth: state.deepest };
}

/** The first line at which `text` nests more than `maxDepth` levels of mappings, sequences, arrays or objects. */
export function yamlDepthProblem(text: string, maxDepth = MAX_NESTING_DEPTH): YamlDepthProblem | undefined {
  const found = scan(text, maxDepth);
  return found.line === 0 ? undefined : found;
}

/** The most levels `text` nests, as the scan counts them (tests hold it to the parsed value's depth). */
export function yamlTextDepth(text: string): number {
  return scan(text, Infinity).depth;
}
