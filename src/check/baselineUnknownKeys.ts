/**
 * A check baseline's field that its format does not hold, said as such: one a later format brought in says
 * which format; one in a file another loopcost version wrote says that a newer one writes fields an older one
 * does not read (baselineFile.ts reads the file).
 */
import type { InputIssue } from '../errors.js';
import { fieldPath } from '../fieldPath.js';
import { LOOPCOST_VERSION } from '../version.js';
import { BASELINE_SCHEMA, BASELINE_SCHEMA_V1, BASELINE_SCHEMA_V2, WRITTEN_BY } from './baselineFormats.js';


/** When `writtenBy` (a baseline's `loopcost` field) is another version than this one: what to do about a field this one does not know. */
function otherVersionHint(writtenBy: unknown): string | undefined {
  if (typeof writtenBy !== 'string' || writtenBy === LOOPCOST_VERSION) return undefined;
  return `the baseline was written by loopcost ${writtenBy.slice(0, 40)} and this is ${LOOPCOST_VERSION}: a newer loopcost writes fields an older one does not read — check with the version that wrote it, or write the baseline again with this one (\`loopcost check --update-baseline FILE\`)`;
}

/** Top-level fields a later format brought in, with the format that did: an older file holding one says which. */
const INTRODUCED_IN: Record<string, string> = { models: BASELINE_SCHEMA_V2 };

/**
 * A key the file's format does not hold, named as its field; one a later format brought in says which format;
 * in a file another loopcost version wrote (`writtenBy`: its `loopcost` field), the hint says a newer one may
 * write fields this one does not read.
 */
export function unknownKeyIssue(file: string, path: readonly PropertyKey[], written: { format: unknown; writtenBy: unknown }): InputIssue {
  const { format, writtenBy } = written;
  const field = fieldPath(path);
  const introduced = path.length === 1 ? INTRODUCED_IN[String(path[0])] : undefined;
  if (introduced === undefined || format !== BASELINE_SCHEMA_V1) return { file, field, code: 'unrecognized_keys', message: 'is not a field of a check baseline', hint: otherVersionHint(writtenBy) ?? WRITTEN_BY };
  return {
    file,
    field,
    code: 'unrecognized_keys',
    message: `is not a field of format 1 (${BASELINE_SCHEMA_V1}, the file's "baseline"): ${field} came with format 2 (${introduced})`,
    hint: `a file holding ${field} was written as format 2 or later: set "baseline" back to the format it was written in (${BASELINE_SCHEMA} now), or drop ${field}; ${WRITTEN_BY}`,
  };
}

