/**
 * The import notes of one Claude Code transcript (transcript.ts reads it): what its figures rest on (a cut
 * last line, output logged before a stream ended, failed attempts, ids that look replaced, images of an
 * estimated size) and what bills its calls beyond the token prices (billingNotes.ts).
 */
import type { LogClock } from '../common/timestamp.js';
import { counted } from '../../plural.js';
import type { DraftCall } from './draftCall.js';
import { IMAGE_TOKENS_MAX } from './imageTokens.js';
import { billingNotes, webToolNote } from './billingNotes.js';

/** What a transcript's reader found that its notes say. */
export interface NotedReader {
  readonly clock: LogClock;
  readonly drafts: readonly DraftCall[];
  readonly skippedSynthetic: number;
  readonly reusedIds: number;
  readonly reusedId: string | undefined;
  readonly orphanResults: number;
  /** Image blocks in tool results, and their estimated tokens (imageTokens.ts). */
  readonly images: { count: number; tokens: number };
}

function imagesNote(images: { count: number; tokens: number }): string {
  return `${counted(images.count, 'image')} in tool results: counted at an estimated ${images.tokens} tokens in those results (Anthropic's width × height / 750, at most ${IMAGE_TOKENS_MAX} an image; ${IMAGE_TOKENS_MAX} when the size is not read from a PNG header), so context estimates rest on it; the calls' recorded usage and money are as logged`;
}

export function transcriptNotes(reader: NotedReader, cutLine: number | undefined): string[] {
  const notes: string[] = reader.clock.notes();
  if (cutLine !== undefined) notes.push(`line ${cutLine} is cut (not JSON): skipped, as a transcript still being written ends`);
  const real = reader.drafts.filter((draft) => !draft.failed);
  const under = real.filter((draft) => draft.usage !== undefined && draft.usage.output < draft.visibleTokens);
  if (under.length > 0) {
    const missing = under.reduce((sum, draft) => sum + draft.visibleTokens - draft.usage!.output, 0);
    notes.push(
      `${under.length} of ${real.length} calls record fewer output tokens than their visible content holds (${missing} tokens by the public Claude tokenizer): Claude Code logged their usage before the stream ended, so their output and its cost are lower bounds`,
    );
  }
  const thinking = real.filter((draft) => draft.thinking && draft.usage?.thinking === undefined).length;
  if (thinking > 0) notes.push(`${thinking} calls hold thinking blocks: their thinking tokens are inside output_tokens (Anthropic records no separate count)`);
  const failed = reader.drafts.length - real.length;
  if (failed > 0) notes.push(`${failed} API calls failed (api_error lines and <synthetic> API-error messages): recorded as failed calls with zero usage`);
  if (reader.skippedSynthetic > 0) notes.push(`${reader.skippedSynthetic} <synthetic> assistant lines are not model calls (Claude Code wrote them itself): skipped`);
  if (reader.reusedIds > 0) {
    const [id, requestId] = reader.reusedId!.split('|');
    notes.push(
      `${counted(reader.reusedIds, 'response')} repeat the message.id ${JSON.stringify(id)}${requestId ? ` and requestId ${JSON.stringify(requestId)}` : ''} of an earlier response they cannot be part of (another prompt usage, or a user prompt between; the ids look replaced, as in a sanitised log): each read as a call of its own, not merged`,
    );
  }
  const compacted = real.filter((draft) => (draft.usage?.compactions?.length ?? 0) > 0).length;
  if (compacted > 0) {
    notes.push(`${counted(compacted, 'call')} report a server-side compaction in usage.iterations (billed on top of the top-level usage, which leaves it out): each read as a paid compaction call before the response`);
  }
  if (reader.orphanResults > 0) notes.push(`${reader.orphanResults} tool results answer no tool call of this transcript: not counted`);
  if (reader.images.count > 0) notes.push(imagesNote(reader.images));
  notes.push(...billingNotes(real.flatMap((draft) => (draft.usage === undefined ? [] : [{ model: draft.model!, usage: draft.usage }]))));
  const webTools = webToolNote(real.flatMap((draft) => draft.toolCalls.map((tool) => tool.name)));
  if (webTools !== undefined) notes.push(webTools);
  return notes;
}

