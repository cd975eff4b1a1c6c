/**
 * Claude Code's own web tools (WebSearch, WebFetch tool calls) each run a model request of their own that the
 * transcript does not log: an import note says how many such calls an agent made and that their tokens and
 * search fees are in no figure, so the cost is a floor. Before, nothing said so (billingNotes.ts covered only
 * the searches a response's own usage records, `server_tool_use`). The fixture's sub-agent made 6 of each.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webToolNote } from '../../src/import/claudeCode/billingNotes.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectAsync } from '../helpers.js';

const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04';
const FLOOR =
  "Claude Code runs a model request of its own for each (WebSearch a request with Anthropic's web search tool, billed per search on top of its tokens; WebFetch a small model reading the fetched page) that the transcript does not log, so their tokens and search fees are in no figure here: the cost is a floor";

describe("Claude Code's web tools", () => {
  it("are noted on the agent that called them, with how many, as requests the log leaves out", async () => {
    const runs = await collectAsync(loadTraceFiles([join('test/fixtures/claude-code', `${SESSION}.jsonl`)]));
    const notesOf = (agentId: string) => runs.filter((run) => run.header.agent?.agentId === agentId).flatMap((run) => run.header.importedFrom?.notes ?? []);
    expect(notesOf('aac57f5')).toContain(`6 WebSearch and 6 WebFetch tool calls: ${FLOOR}`);
    // The main agent called neither (its progress lines quote the sub-agent's calls: not its own).
    expect(notesOf('main').filter((note) => note.includes('WebSearch'))).toEqual([]);
  });

  it('name only the tools called, and nothing when none is', () => {
    expect(webToolNote(['Read', 'WebFetch'])).toBe(`1 WebFetch tool call: ${FLOOR}`);
    expect(webToolNote(['Read', 'Bash'])).toBeUndefined();
  });
});
