/**
 * A sub-agent whose transcript file is missing (a Claude Code session copied without its
 * `<session>/subagents` folder, or without the 2.0.x `agent-<id>.jsonl` beside it): the run that started
 * it carries an import note saying so (src/import/claudeCode/missingTranscript.ts), and the command warns
 * of it on standard error, once, from its own thread, whichever way it read the runs: workOnRuns
 * (inputs.ts), sweep's units on any thread (sweepShares.ts), import, serve. Every total leaves the
 * sub-agent's cost out, which a note shown only with --wide would hide.
 */
import { isMissingTranscriptNote } from '../../import/claudeCode/missingTranscript.js';
import { runOfFile } from '../../io/openInput.js';
import { printableCell } from '../../report/text.js';
import type { Trace } from '../../trace/types.js';
import type { CliIO } from '../io.js';

/** A run's note of a missing sub-agent transcript, and the run (its source: `file#run`). */
export interface MissingTranscript {
  source: string;
  note: string;
}

/** The missing sub-agent transcripts `trace`'s import notes name. */
export function missingTranscriptsOf(trace: Trace): MissingTranscript[] {
  return (trace.header.importedFrom?.notes ?? []).filter(isMissingTranscriptNote).map((note) => ({ source: trace.source, note }));
}

/** Each of `missing` once on stderr, one line whatever the format, except those of the files `dropped` (bad, left out with --skip-bad). */
export function warnMissingTranscripts(missing: readonly MissingTranscript[], io: Pick<CliIO, 'stderr'>, dropped: readonly string[] = []): void {
  const lines = missing.filter(({ source }) => !dropped.some((file) => runOfFile(source, file))).map(({ source, note }) => `warning: ${printableCell(`${source}: ${note}`)}\n`);
  for (const line of new Set(lines)) io.stderr(line);
}
