/**
 * Where Claude Code compacted a session's conversation, and which of those compactions no transcript
 * records. Claude Code writes a `compact_boundary` system line in the session's own transcript when it
 * compacts (`/compact`, or auto-compact: `compactMetadata.trigger`, and `preTokens`, the conversation's
 * tokens then), and the summary as the next `isCompactSummary` user line; the compaction call itself is in
 * its own file, `<session>/subagents/agent-acompact-<id>.jsonl` (sessionTree.ts merges it in as a paid
 * compaction call). A session copied without that file loses the call and its cost: each boundary no
 * compaction transcript (nor a server-side compaction of `usage.iterations`) answers is warned of, as a
 * missing sub-agent's transcript is (missingTranscript.ts), with an estimate of what it cost
 * (compactionEstimate.ts).
 */
import { flattenText } from '../common/contentText.js';
import { isJsonObject } from '../common/jsonValue.js';
import type { LineIssues } from '../common/jsonLines.js';
import { countTokens } from '../tokenCount.js';
import type { CompactBoundary } from './transcriptTypes.js';

/** The boundaries of one transcript's main chain, as its lines are read (transcript.ts). */
export class CompactBoundaryLog {
  readonly boundaries: CompactBoundary[] = [];
  /** Boundaries waiting for the main chain's next call (its model) and for their summary line. */
  private waitingModel: CompactBoundary[] = [];
  private waitingSummary: CompactBoundary | undefined;

  /**
   * A system line: a main-chain `compact_boundary` is one, priced at the model of the call before it until a
   * later call names another. Its `compactMetadata.preTokens`, when there, is a token count (else an issue of
   * the line: a damaged figure is not told as absent).
   */
  system(line: number, value: Record<string, unknown>, at: { atMs: number | undefined; lastModel: string | undefined; issues: LineIssues }): void {
    if (value.subtype !== 'compact_boundary' || value.isSidechain === true) return;
    const { meta, preTokens } = at.issues.readLine(line, (fields) => {
      const read = fields.optObject(value.compactMetadata, 'compactMetadata') ?? {};
      return { meta: read, preTokens: fields.optCount(read.preTokens, 'compactMetadata.preTokens') };
    });
    const boundary: CompactBoundary = { line };
    if (at.atMs !== undefined) boundary.atMs = at.atMs;
    if (preTokens !== undefined) boundary.preTokens = preTokens;
    if (typeof meta.trigger === 'string' && meta.trigger !== '') boundary.trigger = meta.trigger;
    if (at.lastModel !== undefined) boundary.model = at.lastModel;
    this.boundaries.push(boundary);
    this.waitingModel.push(boundary);
    this.waitingSummary = boundary;
  }

  /** A user line: the summary of the last boundary when it is the compaction's (`isCompactSummary`). */
  user(line: number, value: Record<string, unknown>, model: string | undefined): void {
    if (value.isCompactSummary !== true || this.waitingSummary === undefined) return;
    const message = isJsonObject(value.message) ? value.message : {};
    const text = flattenText(message.content);
    if (text !== '') this.waitingSummary.summary = { tokens: countTokens(text, model ?? this.waitingSummary.model ?? 'claude'), line };
    this.waitingSummary = undefined;
  }

  /** A main-chain call's model: the model the compactions before it are priced at. */
  call(model: string): void {
    for (const boundary of this.waitingModel) Object.assign(boundary, { model, modelAfter: true });
    this.waitingModel = [];
  }
}

/**
 * The boundaries no compaction answers: each boundary, in order, takes the earliest compaction not taken
 * that started before it (`startsMs`: a compaction transcript's first call, a server-side compaction call;
 * undefined when undated, taken by any boundary).
 */
export function unansweredBoundaries(boundaries: readonly CompactBoundary[], startsMs: readonly (number | undefined)[]): CompactBoundary[] {
  const left = [...startsMs].sort((a, b) => (a ?? Infinity) - (b ?? Infinity));
  const unanswered: CompactBoundary[] = [];
  for (const boundary of boundaries) {
    const k = left.findIndex((start) => start === undefined || boundary.atMs === undefined || start <= boundary.atMs);
    if (k < 0) unanswered.push(boundary);
    else left.splice(k, 1);
  }
  return unanswered;
}
