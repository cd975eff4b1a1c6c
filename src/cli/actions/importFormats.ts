/**
 * Whether an input of `loopcost import` is of no format loopcost reads, told before any run is written:
 * runs streamed to standard output (or a pipe or device --out) cannot be taken back, so a bad input found
 * after them would leave a good file's runs written beside "nothing was written". The detection is the
 * reader's own (src/import/formats.ts): a line format by the first line, else the whole document's.
 */
import { UserError } from '../../errors.js';
import { lineFormat, detectFormat } from '../../import/formats.js';
import { refuseWideText } from '../../io/inputErrors.js';
import type { ReadLimits } from '../../io/limits.js';
import { openInput, statOf, STDIN_PATH } from '../../io/openInput.js';
import { readDocument } from '../../io/readLines.js';

/** Whether some input (a regular file: standard input and pipes are read once, by the import) fails format detection. */
export async function someFormatUnknown(paths: readonly string[], limits: ReadLimits): Promise<boolean> {
  for (const path of paths) {
    if (path === STDIN_PATH || statOf(path)?.isFile() !== true) continue;
    try {
      await detectedFormat(path, limits);
    } catch (error) {
      if (error instanceof UserError) return true;
      throw error;
    }
  }
  return false;
}

async function detectedFormat(path: string, limits: ReadLimits): Promise<void> {
  const input = await openInput(path, limits);
  try {
    refuseWideText(input.head, input.label);
    if (lineFormat(new TextDecoder('utf-8').decode(input.head)) !== undefined) return;
    detectFormat(await readDocument(input, limits), input.label);
  } finally {
    await input.close();
  }
}
