/**
 * A served answer's own bill beside the loop's. `loopcost serve` states what it billed each call in its
 * answer's `loopcost.costPico` (a string of digits: serve/reply.ts), priced as the recording or scenario it
 * serves names its model and provider. The loop bills the same usage at the run's own `pricing`: when that
 * gives another figure (OpenAI's price of `openai/gpt-oss-120b` for a Groq recording, served at Groq's), the
 * run's totals are not what the server billed, and the loop's own recording replays to them, so no parity
 * check would show it. The run notes the first such call once (AgentRunResult `notes`), with both figures
 * and its cause, read from serve's `loopcost.pricedAs` beside the run's pricing: the day (serve prices a
 * recording as of its `recordedAt`, resolve(model, provider) at the table's latest: the day to give), the
 * model or provider priced (the provider to give), or both. A response without that extension (any other
 * server) is not compared. Pure.
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

/** serve's pricing of the call (its answer's `loopcost.pricedAs`, serve/reply.ts PricedAs), when it states one. */
interface ServedPricing {
  model: string;
  provider: string | undefined;
  asOf: string | undefined;
  dating: unknown;
}

function servedPricing(raw: unknown): ServedPricing | undefined {
  const pricedAs = field(field(raw, 'loopcost'), 'pricedAs');
  const [model, provider, asOf] = [field(pricedAs, 'model'), field(pricedAs, 'provider'), field(pricedAs, 'asOf')];
  if (typeof model !== 'string') return undefined;
  return { model, provider: typeof provider === 'string' ? provider : undefined, asOf: typeof asOf === 'string' ? asOf : undefined, dating: field(pricedAs, 'dating') };
}

/** Why a pricing's day is its day, in words (PriceSource `dating`). */
function dayWords(asOf: string, dating: unknown): string {
  if (dating === 'recorded') return `${asOf}, the day the run was recorded (its header.recordedAt)`;
  if (dating === 'as-of') return `${asOf} (--prices-as-of)`;
  if (dating === 'release') return `${asOf}, the price table's latest (no recording day given)`;
  return asOf;
}

const PROVIDER_WORDS =
  "give the pricing of the provider the recording or scenario names, e.g. loadPriceTable().resolve(model, provider)";

/**
 * What the note says caused the difference, comparing serve's pricing (`pricedAs`) with the run's: the pricing
 * day (serve prices a recording as of its `recordedAt`, resolve(model, provider) at the table's latest), the
 * model or provider priced, or both; the provider words when serve names no pricing (an older serve).
 */
function causeWords(servedAt: ServedPricing | undefined, pricing: ModelPricing): string {
  const runDay = pricing.source.asOf;
  if (servedAt === undefined) return `the run's cost figures are at its own \`pricing\`, not at the server's prices; ${PROVIDER_WORDS}`;
  const otherDay = servedAt.asOf !== undefined && runDay !== undefined && servedAt.asOf !== runDay;
  const otherPrice = servedAt.model !== pricing.model || (servedAt.provider ?? '') !== (pricing.provider ?? '');
  const causes: string[] = [];
  if (otherPrice) causes.push(`serve priced it as ${servedAt.provider === undefined ? servedAt.model : `${servedAt.provider}'s ${servedAt.model}`}: ${PROVIDER_WORDS}`);
  if (otherDay) {
    const provider = servedAt.provider ?? pricing.provider; // serve's: the provider to give with the day
    const asked = `'${pricing.requested}', ${provider === undefined ? 'undefined' : `'${provider}'`}`;
    causes.push(
      `serve priced it at the prices of ${dayWords(servedAt.asOf!, servedAt.dating)}, this run at those of ${dayWords(runDay!, pricing.source.dating)}: ` +
        `for the recording day's prices give its day, loadPriceTable().resolve(${asked}, '${servedAt.asOf}')`,
    );
  }
  if (causes.length === 0) return `the run's cost figures are at its own \`pricing\`, not at the server's prices (serve priced it as the same model and provider, at the same day)`;
  return causes.join('; and ');
}

/** Notes (once a run) a call whose served bill is not the loop's cost of it, naming the cause (causeWords). */
export function noteServedCost(notes: string[], served: ServedCall): void {
  // Once noted, nothing more to read of later calls' answers.
  if (notes.some((note) => note.startsWith(NOTE_START))) return;
  const bill = servedBill(served.raw);
  if (bill === undefined || bill.costPico === BigInt(served.costPico)) return;
  const which = typeof bill.call === 'number' ? ` ${bill.call}` : '';
  const session = typeof bill.session === 'string' ? ` of session ${JSON.stringify(bill.session)}` : '';
  const fallback = served.pricing.providerFallback === undefined ? '' : ` (${served.pricing.providerFallback.detail})`;
  notes.push(
    `${NOTE_START}${which}${session} $${picoToUsdString(bill.costPico)} (its loopcost.costPico), but this run priced it $${picoToUsdString(served.costPico)} at ${pricedAs(served.pricing)}${fallback}: ` +
      `${causeWords(servedPricing(served.raw), served.pricing)} (only the first such call is noted)`,
  );
}
