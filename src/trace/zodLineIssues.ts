/** A native trace line's zod issues, in the reader's words (trace/parseNative.ts). */
import type { z } from 'zod';
import type { InputIssue } from '../errors.js';
import { knownFieldsAt } from '../import/common/didYouMean.js';
import { unknownFieldsHint } from '../import/common/nearestName.js';
import { zodIssueWords } from '../zodWords.js';
import { numbersAsWritten } from './jsonLine.js';
import { countTooLarge } from './rules.js';
import { traceSchemas } from './schema.js';
import { fieldPath } from '../fieldPath.js';

/** A line's zod issues, its numbers quoted as the line wrote them (`text`: JSON.parse rounds past 2^53). */
export function zodIssues(error: z.ZodError, line: { file: string; line: number; raw: unknown; text: string }): InputIssue[] {
  const hint = 'see docs/trace-format.md';
  const { raw } = line;
  const writtenAt = numbersAsWritten(line.text);
  const subject = { schema: traceSchemas().recordSchema, value: raw, writtenAt };
  return error.issues.map((issue) => {
    const field = fieldPath(issue.path);
    const at = { file: line.file, line: line.line, field: field || undefined };
    if (issue.code === 'too_big' && (issue.origin === 'number' || issue.origin === 'int') && typeof issue.input === 'number') {
      // Past what a count holds, the count's rule says it; past a limit of the field's own (failed.status), the field's words.
      const words = countTooLarge(field, issue.input, { writtenAt }) ?? zodIssueWords(issue, subject);
      return { ...at, code: 'too_large', message: words?.message ?? issue.message, hint };
    }
    if (issue.code === 'unrecognized_keys') {
      const near = unknownFieldsHint(issue.keys, knownFieldsAt(traceSchemas().recordSchema, raw, issue.path));
      return { ...at, code: issue.code, message: `unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${issue.keys.join(', ')}`, hint: near === undefined ? hint : `${near}; ${hint}` };
    }
    const words = zodIssueWords(issue, subject);
    return { ...at, code: words?.code ?? issue.code, message: words?.message ?? issue.message, hint };
  });
}
