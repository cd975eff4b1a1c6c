/**
 * What bills a Claude Code session's calls beyond the token prices loopcost charges, said as import notes
 * so that no command's figures leave it unsaid (every command shows import notes: runs[].importNotes):
 * - web searches (`usage.server_tool_use.web_search_requests`, read into the call's `webSearchRequests`): a
 *   fee per search on top of the tokens, the bundled table's `web_searches_kcount`
 *   (src/pricing/webSearchPrice.ts), named with what it comes to; it is in loopcost's costs (kernel/cost.ts
 *   requestFeesPico) — under a LiteLLM file (`--prices`), which prices no searches, it is not, and the note
 *   says what it would come to. Web fetches bill only the tokens they bring, in the usage.
 * - fast mode (`usage.speed: "fast"`) and US-only inference (`usage.inference_geo: "us"`): the bundled
 *   table has no prices for either (no speed or data-residency tier), so such calls are priced at the
 *   model's standard prices, and their recorded cost may be understated.
 * - Claude Code's own web tools (`WebSearch`, `WebFetch` tool calls, webToolNote): each runs model
 *   requests of its own that the transcript does not log, so what they bill is in no figure.
 */
import { counted } from '../../plural.js';
import { webSearchUsdPerThousand } from '../../pricing/webSearchPrice.js';
import type { ClaudeUsage } from './usage.js';

export interface BilledCall {
  model: string;
  usage: ClaudeUsage;
}

const TABLE = 'the bundled @pydantic/genai-prices';

/** USD with at most 4 decimals, as reports show money ($0.05, $0.0001). */
function usd(amount: number): string {
  return `$${Number(amount.toFixed(4))}`;
}

function webSearchNote(calls: readonly BilledCall[]): string | undefined {
  const byModel = new Map<string, { searches: number; calls: number }>();
  for (const { model, usage } of calls) {
    if (usage.webSearches === undefined) continue;
    const entry = byModel.get(model) ?? { searches: 0, calls: 0 };
    entry.searches += usage.webSearches;
    entry.calls += 1;
    byModel.set(model, entry);
  }
  if (byModel.size === 0) return undefined;
  const parts = [...byModel].map(([model, { searches, calls: made }]) => {
    const price = webSearchUsdPerThousand(model, 'anthropic');
    const what = `${counted(searches, 'web search', 'web searches')} on ${counted(made, 'call')} of ${model}`;
    if (price === undefined) return `${what} (${TABLE} has no web search price for it: their fee is not known here, and not in the cost)`;
    return `${what} (${usd(price.usdPerThousand)} per 1,000 searches in ${TABLE}, ${price.provider}/${price.model} ${'web_searches_kcount'}: ${usd((searches * price.usdPerThousand) / 1000)})`;
  });
  return `${parts.join('; ')} (usage.server_tool_use.web_search_requests): Anthropic bills each search on top of its tokens; that fee is in the cost at the price table's web search price (a price table without one, such as a LiteLLM file, adds nothing for them)`;
}

function webFetchNote(calls: readonly BilledCall[]): string | undefined {
  const fetches = calls.reduce((sum, call) => sum + (call.usage.webFetches ?? 0), 0);
  if (fetches === 0) return undefined;
  return `${counted(fetches, 'web fetch', 'web fetches')} (usage.server_tool_use.web_fetch_requests): billed as the tokens of what they fetched, which the usage holds, so nothing is left out of the cost`;
}

/** One note per value of a usage field the table has no price for (`fast`, `us`), with how many calls carry it. */
function unpricedNotes(calls: readonly BilledCall[], field: 'speed' | 'inferenceGeo'): string[] {
  const counts = new Map<string, number>();
  for (const { usage } of calls) {
    const value = usage[field];
    if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts].map(([value, n]) => {
    const shown = JSON.stringify(value);
    const which =
      field === 'speed'
        ? `usage.speed ${shown}${value === 'fast' ? ' (fast mode, billed at a premium when it was a paid research preview: 6× the standard prices for Opus 4.6 in February 2026)' : ''}`
        : `usage.inference_geo ${shown}${value === 'us' ? ' (US-only inference, billed 1.1× the standard prices for Opus 4.6 and later)' : ''}`;
    const tier = field === 'speed' ? 'speed' : 'data-residency';
    return `${counted(n, 'call')} record ${which}: ${TABLE} has no ${tier} prices, so they are priced at the model's standard prices and their recorded cost may be understated`;
  });
}

/** The notes of what bills the calls beyond their token prices (none when nothing does). */
export function billingNotes(calls: readonly BilledCall[]): string[] {
  return [webSearchNote(calls), webFetchNote(calls), ...unpricedNotes(calls, 'speed'), ...unpricedNotes(calls, 'inferenceGeo')].filter((note): note is string => note !== undefined);
}

/** Claude Code's web tools: each call runs model requests of its own, outside the transcript. */
const WEB_TOOLS = ['WebSearch', 'WebFetch'] as const;

/**
 * The note of the calls of Claude Code's web tools among `toolNames` (the transcript's tool calls): WebSearch
 * sends a request of its own with Anthropic's web search tool (its tokens, and a fee per search), WebFetch
 * has a small model read the page it fetched; neither request is in the transcript, so the figures leave
 * them out and are a floor. Undefined when there is none.
 */
export function webToolNote(toolNames: readonly string[]): string | undefined {
  const counts = WEB_TOOLS.map((tool) => ({ tool, n: toolNames.filter((name) => name === tool).length })).filter(({ n }) => n > 0);
  if (counts.length === 0) return undefined;
  const said = counts.map(({ tool, n }) => `${n} ${tool}`).join(' and ');
  const total = counts.reduce((sum, { n }) => sum + n, 0);
  return `${said} tool call${total === 1 ? '' : 's'}: Claude Code runs a model request of its own for each (WebSearch a request with Anthropic's web search tool, billed per search on top of its tokens; WebFetch a small model reading the fetched page) that the transcript does not log, so their tokens and search fees are in no figure here: the cost is a floor`;
}
