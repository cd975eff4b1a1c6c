/**
 * loopcost's corrections overlay (pricing/priceCorrections.ts) as part of a baseline's price identity: a
 * baseline names the overlay its table carried (version and data hash); one written before baselines named
 * it holds none and is read as priced with the table without them. When the overlay differs from this
 * check's, the price note says so: what the corrections change (a model's prices, its window) is then not
 * drift the table's own hash explains.
 */
import type { PriceSource } from './types.js';

/** The overlay a table carried as a baseline (and a fitted profile: scenario/fitWarnings.ts) stores it. */
export interface StoredCorrections {
  version: string;
  hash: string;
}

/** What of a price identity (a baseline's `prices`) says which table and overlay. */
interface PriceIdentityPart {
  name: string;
  corrections?: StoredCorrections;
}

/** The overlay `source` carries, as stored; undefined when it carries none (a LiteLLM file). */
export function storedCorrections(source: PriceSource): StoredCorrections | undefined {
  return source.corrections === undefined ? undefined : { version: source.corrections.version, hash: source.corrections.hash };
}

/** Whether two stored overlays are the same (both none too). */
export function sameCorrections(a: StoredCorrections | undefined, b: StoredCorrections | undefined): boolean {
  return a?.version === b?.version && a?.hash === b?.hash;
}

/** The overlay of the baseline's table and of this check's: null, none (a baseline written before baselines named it, or a table it does not apply to). */
export interface CorrectionsChange {
  baseline: StoredCorrections | null;
  now: StoredCorrections | null;
}

/** `v1 (sha256 …)`: which overlay. */
export function versionText(corrections: StoredCorrections): string {
  return `v${corrections.version} (sha256 ${corrections.hash})`;
}

/** `loopcost corrections v1 (sha256 …)`: the overlay as a price label names it. */
export function correctionsLabel(corrections: StoredCorrections): string {
  return `loopcost corrections ${versionText(corrections)}`;
}

/**
 * The overlays of two price identities of the same table (the bundled one) when they differ (version or hash);
 * undefined when they are the same, or the tables are others (the labels say so: a LiteLLM file carries none).
 */
export function correctionsChange(baseline: PriceIdentityPart, now: PriceIdentityPart): CorrectionsChange | undefined {
  if (baseline.name !== now.name || sameCorrections(baseline.corrections, now.corrections)) return undefined;
  return { baseline: baseline.corrections ?? null, now: now.corrections ?? null };
}

/** The change as the price note says it, a sentence. */
export function correctionsChangeText(change: CorrectionsChange): string {
  const { baseline, now } = change;
  if (baseline === null) {
    return (
      `loopcost's corrections: the baseline names none (one written before baselines named them is read as priced with the table without them), ` +
      `this check's table carries ${correctionsLabel(now!)}`
    );
  }
  if (now === null) return `loopcost's corrections: the baseline was priced with ${correctionsLabel(baseline)}, this check's table carries none`;
  return `loopcost's corrections changed since the baseline: ${versionText(baseline)} then, ${versionText(now)} now`;
}
