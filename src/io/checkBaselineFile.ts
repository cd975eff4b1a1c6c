/**
 * A check baseline (`loopcost check --update-baseline FILE`) among the inputs, told by its content: the one
 * rule every command's input collection (collectInputs.ts) holds it to. It is check's own file, read with
 * `--baseline`, and the README keeps it beside the scenarios (`scenarios/loopcost-baseline.json`), so a
 * directory's walk or a glob that brings one in leaves it out (said in one line: checkBaselinesMessage;
 * check says nothing, the file being its own), and one named on its own is refused as what it is
 * (checkBaselineNamed), not read as a trace of no format.
 */
import { UserError } from '../errors.js';
import { counted } from '../plural.js';
import { someNames } from '../someNames.js';
import { isGlob } from './globMatches.js';
import { peekRegularFile } from './readInput.js';

/** Bytes read from a file's start to tell a check baseline (`--update-baseline` writes its format first). */
const BASELINE_PEEK_BYTES = 4096;
const BASELINE_FORMAT = /^\s*\{\s*"baseline"\s*:\s*"loopcost\.check-baseline\/\d+"/;

/** What reads a check baseline, wherever one is met among the inputs. */
const BASELINE_USE = 'loopcost check reads a baseline with --baseline';

/**
 * The names a walk looks inside for a check baseline: one document's (a baseline is one JSON document), not
 * a trace's by the thousand (`.jsonl`, `.traj`: a directory's walk opens none of them to tell).
 */
const DOCUMENT_NAME = /\.(json|ya?ml)(\.gz)?$/i;

/**
 * Whether `file` is a regular file holding a check baseline (`{"baseline": "loopcost.check-baseline/N", …}`):
 * check's own, never a trace. `brought`: a directory or glob brought the file in, so only a document's name is looked inside.
 */
export function isCheckBaseline(file: string, brought = false): boolean {
  if (brought && !DOCUMENT_NAME.test(file)) return false;
  const head = peekRegularFile(file, BASELINE_PEEK_BYTES);
  return head !== undefined && BASELINE_FORMAT.test(head);
}

/** A check baseline named on its own as an input: refused for what it is. */
export function checkBaselineNamed(file: string): UserError {
  return new UserError({
    file,
    code: 'check_baseline',
    message: 'is a check baseline (loopcost check --update-baseline wrote it), not a trace or a scenario file',
    hint: `name trace or scenario files here; to compare a check with it: loopcost check scenarios/ --baseline ${file}`,
  });
}

/** A directory or glob (`input`, as given) that brought in check baselines and nothing else. */
export function onlyCheckBaselines(input: string, baselines: readonly string[]): UserError {
  const what = baselines.length === 1 ? 'a check baseline' : 'check baselines';
  const glob = isGlob(input);
  return new UserError({
    file: input,
    code: glob ? 'no_match' : 'empty_dir',
    message: `${glob ? 'matches' : 'holds'} no trace or scenario file, only ${what} (${someNames(baselines)}), left out: ${BASELINE_USE}`,
    hint: 'name trace or scenario files here',
  });
}

/** The line for standard error on the check baselines a directory or glob brought in, left out (empty when none). */
export function checkBaselinesMessage(baselines: readonly string[]): string {
  if (baselines.length === 0) return '';
  const hold = baselines.length === 1 ? 'it holds' : 'they hold';
  return `loopcost: ${counted(baselines.length, 'check baseline')} among the inputs left out (${someNames(baselines)}): ${hold} loopcost check's measured figures, no runs (${BASELINE_USE})\n`;
}
