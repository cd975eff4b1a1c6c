/**
 * A served answer's own bill beside the loop's. `loopcost serve` states what it billed each call in its
 * answer's `loopcost.costPico` (a string of digits: serve/reply.ts), priced as the recording or scenario it
 * serves names its model and provider. The loop bills the same usage at the run's own `pricing`: when that
 * gives another figure (OpenAI's price of `openai/gpt-oss-120b` for a Groq recording, served at Groq's), the
 * run's totals are not what the server billed, and the loop's own recording replays to them, so no parity
 * check would show it. The run notes the first such call once (AgentRunResult `notes`), with both figures
 * and the pricing to give. A response without that extension (any other server) is not compared. Pure.
 */
import { picoToUsdString, type Pico } from '../money.js';
import type { ModelPricing } from '../pricing/types.js';

/** What the note is made of: the response as received (ModelTurn `raw`), the loop's cost of the call, and the run's pricing. */
export interface ServedCall {
  raw: unknown;
  costPico: Pico;
  pricing: ModelPricing;
}

const NOTE_START = 'loopcost serve billed call';

function field(holder: unknown, key: string): unknown {
  return typeof holder === 'object' && holder !== null ? (holder as Record<string, unknown>)[key] : undefined;
}

/** serve's bill of the response (`loopcost.costPico`, `call`, `session`), or undefined when it states none. */
function servedBill(raw: unknown): { costPico: bigint; call: unknown; session: unknown } | undefined {
  const extension = field(raw, 'loopcost');
  const costPico = field(extension, 'costPico');
  if (typeof costPico !== 'string' || !/^\d{1,30}$/.test(costPico)) return undefined;
  return { costPico: BigInt(costPico), call: field(extension, 'call'), session: field(extension, 'session') };
}

/** The pricing as a reader looks it up: `provider/model`, and the name asked for when another. */
function pricedAs(pricing: ModelPricing): string {
  const named = pricing.provider === undefined ? pricing.model : `${pricing.provider}'s ${pricing.model}`;
  return pricing.requested !== pricing.model ? `${named} (asked for as '${pricing.requested}')` : named;
}

/** Notes (once a run) a call whose served bill is not the loop's cost of it. */
export function noteServedCost(notes: string[], served: ServedCall): void {
  const bill = servedBill(served.raw);
  if (bill === undefined || bill.costPico === BigInt(served.costPico) || notes.some((note) => note.startsWith(NOTE_START))) return;
  const which = typeof bill.call === 'number' ? ` ${bill.call}` : '';
  const session = typeof bill.session === 'string' ? ` of session ${JSON.stringify(bill.session)}` : '';
  const fallback = served.pricing.providerFallback === undefined ? '' : ` (${served.pricing.providerFallback.detail})`;
  notes.push(
    `${NOTE_START}${which}${session} $${picoToUsdString(bill.costPico)} (its loopcost.costPico), but this run priced it $${picoToUsdString(served.costPico)} at ${pricedAs(served.pricing)}${fallback}: ` +
      "the run's cost figures are at its own `pricing`, not at the server's prices; give the pricing of the provider the recording or scenario names, e.g. loadPriceTable().resolve(model, provider) " +
      '(only the first such call is noted)',
  );
}
