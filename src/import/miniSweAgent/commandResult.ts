/**
 * A mini-swe-agent command's result → the error text of its tool call. The exit code comes from
 * `extra.returncode` or the `<returncode>` element of the observation, the output from `extra.raw_output`
 * or its `<output>` element.
 */
import type { ToolCallRecord } from '../../trace/types.js';
import { lastNonEmptyLine, shortText } from '../common/text.js';

export function parseReturnCode(text: string): number | undefined {
  const match = /<returncode>\s*(-?\d+)\s*<\/returncode>/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** The command's own output: `extra.raw_output`, else the `<output>` element of the observation. */
export function outputOf(text: string, rawOutput: string | undefined): string {
  if (rawOutput !== undefined) return rawOutput;
  const match = /<output>([\s\S]*?)(<\/output>|$)/.exec(text);
  return match ? match[1]! : text;
}

/**
 * Error text for a failed command: `returncode N: <last non-empty output line>` (the last line is where a
 * traceback names the exception), `returncode N: <exception type>` when the command raised (timeout), or
 * `returncode N` for silent failures (grep without a match). ≤ MAX_ERROR_TEXT characters.
 */
export function applyReturnCode(
  tool: ToolCallRecord,
  returnCode: number | undefined,
  output: string,
  exceptionType: string | undefined,
): void {
  if (returnCode === undefined || returnCode === 0) {
    tool.error = exceptionType !== undefined ? shortText(exceptionType) : null;
    return;
  }
  const detail = exceptionType ?? lastNonEmptyLine(output);
  tool.error = shortText(detail !== undefined ? `returncode ${returnCode}: ${detail}` : `returncode ${returnCode}`);
}
