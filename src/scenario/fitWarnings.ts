/**
 * What `fit` wrote into a profile it fitted, kept beside the loaded scenario as its lines are
 * (scenarioLines.ts): the warnings (`# Warning: …` lines of the comment block that opens with
 * `# Fitted by loopcost fit`) and the price table its runs were priced with (`# Fit prices: {…}`). A team
 * that replays or projects a fitted profile is told what fit found wrong with it (runs of several models
 * pooled, compactions fitted as full history, recorded prompts past the window), not only whoever ran fit,
 * and when another price table runs it than the one fit matched it under (its costs, and the window its
 * runs are held to, are then not fit's). The table's identity carries loopcost's corrections over it (their
 * version and hash): a profile fitted before fit named them is read as fitted with the table without them.
 * Said once per file by the commands that run scenarios (cli/actions/scenarioWarnings.ts). Pure.
 */
import { correctionsLabel, sameCorrections, storedCorrections, versionText, type StoredCorrections } from '../pricing/correctionsChange.js';
import { describePriceSource, GENAI_PRICES_PACKAGE } from '../pricing/source.js';
import type { PriceSource } from '../pricing/types.js';
import type { ReportWarning } from '../report/warnings.js';

const FITTED = '# Fitted by loopcost fit';
const WARNING = '# Warning: ';
const PRICES = 'Fit prices: ';

/** The price table a profile was fitted under: its identity (priceTableKey), as reports name it, and the flags that load it. */
export interface FitPrices {
  key: string;
  table: string;
  /** `--prices FILE` and the like as fit was given them; empty: the bundled table. */
  flags: string;
  /** loopcost's corrections the table carried; absent: none (a LiteLLM file), or a profile fitted before fit named them. */
  corrections?: StoredCorrections;
}

interface Kept {
  warnings: readonly string[];
  prices?: FitPrices;
  /** The recorded runs fit fitted it to (`# Fitted by loopcost fit to 38 recorded runs (…)`). */
  runs?: number;
}

const KEPT = new WeakMap<object, Kept>();

/**
 * What makes two price tables price a profile alike: the data's hash, loopcost's corrections over it, the
 * overriding file's hash, and the day dated prices are read at (`--prices-as-of`). Not the file's name: a
 * copy of the table is the same table.
 */
export function priceTableKey(source: PriceSource): string {
  const corrections = storedCorrections(source);
  const parts = [`sha256 ${source.hash}${corrections === undefined ? '' : ` + ${correctionsLabel(corrections)}`}`];
  if (source.overrides !== undefined) parts.push(`overridden by sha256 ${source.overrides.hash}`);
  if (source.asOf !== undefined) parts.push(`as of ${source.asOf}`);
  return parts.join(', ');
}

/** A table as reports name it, less the rule of which day dated prices are read at when no day was given (the same for every table). */
function tableName(source: PriceSource): string {
  const { releasedOn: _releasedOn, dating: _dating, ...named } = source;
  return describePriceSource(named);
}

/** The comment line (without `# `) fit writes of the table it priced with: one JSON object, read back by fitPricesIn. */
export function fitPricesNote(source: PriceSource, flags: string): string {
  const corrections = storedCorrections(source);
  const prices: FitPrices = { key: priceTableKey(source), table: tableName(source), flags, ...(corrections === undefined ? {} : { corrections }) };
  return `${PRICES}${JSON.stringify(prices)}`;
}

/** The opening comment lines of a profile fit wrote (none for a file `fit` did not write). */
function fittedHead(text: string): string[] {
  if (!text.startsWith(FITTED)) return [];
  const head: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('#')) break;
    head.push(line);
  }
  return head;
}

/** The `# Warning:` lines of a fitted profile's opening comments; none for a file `fit` did not write. */
export function fitWarningsIn(text: string): string[] {
  return fittedHead(text)
    .filter((line) => line.startsWith(WARNING))
    .map((line) => line.slice(WARNING.length).trim());
}

/** The price table a fitted profile names (`# Fit prices: {…}`); none for a file fit did not write, or one fitted before fit named it. */
export function fitPricesIn(text: string): FitPrices | undefined {
  const line = fittedHead(text).find((l) => l.startsWith(`# ${PRICES}`));
  if (line === undefined) return undefined;
  try {
    const value = JSON.parse(line.slice(PRICES.length + 2)) as Partial<FitPrices>;
    const ok = typeof value.key === 'string' && typeof value.table === 'string' && typeof value.flags === 'string';
    const corrections = storedIn(value.corrections);
    return ok ? { key: value.key!, table: value.table!, flags: value.flags!, ...(corrections === undefined ? {} : { corrections }) } : undefined;
  } catch {
    return undefined;
  }
}

/** A `corrections` field as fit writes it ({version, hash}); anything else is none. */
function storedIn(value: unknown): StoredCorrections | undefined {
  const c = value as Partial<StoredCorrections> | null | undefined;
  return typeof c?.version === 'string' && typeof c.hash === 'string' ? { version: c.version, hash: c.hash } : undefined;
}

/** The recorded runs a fitted profile was fitted to, as its first comment line says; none for a file fit did not write. */
export function fitRunsIn(text: string): number | undefined {
  const match = /^# Fitted by loopcost fit to (\d+) recorded runs? /.exec(fittedHead(text)[0] ?? '');
  return match === null ? undefined : Number(match[1]);
}

/** Keeps what fit wrote into `text` beside `scenario` (the object parseScenario returns). */
export function keepFitWarnings(scenario: object, text: string): void {
  const warnings = fitWarningsIn(text);
  const prices = fitPricesIn(text);
  const runs = fitRunsIn(text);
  if (warnings.length > 0 || prices !== undefined || runs !== undefined) KEPT.set(scenario, { warnings, ...(prices === undefined ? {} : { prices }), ...(runs === undefined ? {} : { runs }) });
}

/** The recorded runs a loaded fitted profile was fitted to; none for a scenario fit did not write (project's interval: projectConfidence.ts). */
export function fitRunsOf(scenario: object): number | undefined {
  return KEPT.get(scenario)?.runs;
}

/** The fit warnings of a loaded scenario; none for one built in memory (or a copy of one). */
export function fitWarningsOf(scenario: object): readonly string[] {
  return KEPT.get(scenario)?.warnings ?? [];
}

/** The price table a loaded fitted profile was fitted under; none for a scenario fit did not write. */
export function fitPricesOf(scenario: object): FitPrices | undefined {
  return KEPT.get(scenario)?.prices;
}

/**
 * A warning when `prices` is not the table `scenario` (from `file`) was fitted under: its runs' costs and
 * the window they are held to are not those fit matched to the recorded runs. None when it is, or when the
 * scenario names no fit table.
 */
export function fitPricesWarning(scenario: object, file: string, prices: PriceSource): ReportWarning | undefined {
  const fit = fitPricesOf(scenario);
  if (fit === undefined || fit.key === priceTableKey(prices)) return undefined;
  return {
    code: 'fitted_profile_prices',
    message:
      `${file}: fitted with prices ${fit.table}, run here with ${tableName(prices)}: ` +
      "its synthetic runs are priced, and held to their model's context window, by another table than the one fit matched them to the recorded runs under; " +
      correctionsWords(fit, prices) +
      `${againWords(fit, prices)} to run it as fitted`,
  };
}

/** `loopcost's corrections …; ` when the fit's table carried other corrections than this one (none: a profile fitted before fit named them), else nothing. */
function correctionsWords(fit: FitPrices, prices: PriceSource): string {
  const now = storedCorrections(prices);
  // Only the bundled table carries them: another table (a LiteLLM file) on either side is said by the tables' names.
  const bundledBoth = prices.name === GENAI_PRICES_PACKAGE && fit.table.startsWith(`${GENAI_PRICES_PACKAGE} `);
  if (!bundledBoth || now === undefined || sameCorrections(fit.corrections, now)) return '';
  if (fit.corrections === undefined) {
    return `loopcost's corrections: the profile names none (one fitted before fit named them is read as fitted with the table without them), this table carries ${correctionsLabel(now)}; `;
  }
  return `loopcost's corrections changed since the fit: ${versionText(fit.corrections)} then, ${versionText(now)} here; `;
}

/** What to pass to price a profile as fit did: its flags, or none (the bundled table), which another loopcost release may no longer hold. */
function againWords(fit: FitPrices, prices: PriceSource): string {
  if (fit.flags !== '') return `pass ${fit.flags}`;
  const bundledHere = prices.name === GENAI_PRICES_PACKAGE && prices.overrides === undefined && prices.asOf === undefined;
  // The bundled table with no flag, yet another hash: this loopcost bundles other price data than fit's did.
  if (bundledHere) return `this loopcost bundles other price data than the fit's: fit the recorded runs again, or pass a --prices file of the fit's prices,`;
  return 'drop --prices, --prices-override and --prices-as-of (fit priced with the bundled table)';
}
