/**
 * Parsing JSON documents and locating their syntax errors: the line of an offset, the offset V8 reports,
 * and the field path open at it, so that a broken file fails with a UserError naming where.
 */
import { UserError } from '../../errors.js';
import { parsedJsonTextProblem, type JsonTextProblem } from '../../io/jsonText.js';
import { lineOfOffset, type SyntaxHints } from '../../io/jsonSyntax.js';
import { fileTextSyntaxError } from './jsonSyntaxError.js';

/**
 * The document parsed last, handed to the next call on the same text: format detection parses a whole
 * document to tell what it is, then its importer parses the same text again (src/import/index.ts). Taken
 * by the next call whatever its text, so at most one document is held, and only between those two calls.
 */
let lastParsed: { content: string; value: unknown } | undefined;

/**
 * The document format detection parsed from `content` (plain JSON, already checked as parseJsonDocument
 * checks it), taken; undefined when none was handed over for this text.
 */
export function handedDocument(content: string): unknown {
  const handed = lastParsed;
  lastParsed = undefined;
  return handed !== undefined && handed.content === content ? handed.value : undefined;
}

/** JSON.parse with a UserError (line of the syntax error when V8 reports a position) instead of a SyntaxError. */
export function parseJsonDocument(content: string, path: string, what: string): unknown {
  const handed = handedDocument(content);
  if (handed !== undefined) return handed;
  const value = parseCheckedDocument(content, path, what);
  lastParsed = { content, value };
  return value;
}

function parseCheckedDocument(content: string, path: string, what: string): unknown {
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  if (text.trim() === '') {
    throw new UserError({
      file: path,
      code: 'empty_file',
      message: `the file is empty, expected a ${what} (one JSON document)`,
      hint: 'check that the right file was given and that it was fully written',
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw fileTextSyntaxError(text, error, { file: path, firstLine: 1, noun: 'document', hints: documentHints(what) });
  }
  const problem = parsedJsonTextProblem(text, value, { numbers: true });
  if (problem) throw jsonTextError(problem, text, path, `the ${what} must be plain JSON as its program writes it`);
  return value;
}

/** What to do about a document JSON.parse refused: a bare NaN or Infinity is what Python's json.dump writes for a float JSON cannot hold; a cut one was copied or written only in part. */
function documentHints(what: string): SyntaxHints {
  return {
    nonNumber: `write a number there, or export the run again (Python's json.dump writes NaN or Infinity for a float JSON cannot hold)`,
    endsEarly: `the ${what} looks truncated: copy or decompress it again, or wait until the agent has finished writing it`,
    other: `the ${what} must be one JSON document: fix the syntax at the line shown or export the run again`,
  };
}

/** A nesting or duplicate-key problem (src/io/jsonText.ts) as a UserError naming file, line and field. */
export function jsonTextError(problem: JsonTextProblem, text: string, path: string, hint: string, firstLine = 1): UserError {
  return new UserError({
    file: path,
    line: firstLine + lineOfOffset(text, problem.offset) - 1,
    ...(problem.field === undefined ? {} : { field: problem.field }),
    code: problem.code,
    message: problem.message,
    hint,
  });
}
