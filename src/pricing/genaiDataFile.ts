/**
 * The layout of the build's copy of the genai-prices data (src/pricing/genaiData.ts), made so a start
 * parses only the providers it prices. JSON Lines: the first line is the copy's tag (package, version,
 * size, hash) and every provider's fields that matching reads (id, name, api_pattern, model_match,
 * provider_match, fallback_model_providers; ~7 KB of the ~500 KB); each other field (models, extractors,
 * price_comments, ...) holds 0 in its place, and line i+2 holds those fields of provider i. Reading parses
 * the first line and gives each provider getters that parse its own line on the first read of any of them
 * and then become plain properties: matching a model name reads the matching fields of every provider and
 * the models of the one it settles on and its fallbacks (src/pricing/genaiMatch.ts); listing all models
 * (`loopcost prices`, an unknown model's suggestions) reads them all. Each provider keeps
 * its keys in the package's order, so the providers read back are the package's data, key for key.
 */
import type { Provider } from '@pydantic/genai-prices';

/** The copy's tag and providers (what src/pricing/genaiData.ts reads and the build writes). */
export interface GenaiDataCopy {
  package: string;
  version: string;
  /** Bytes of the package's data file when the copy was made. */
  size: number;
  /** sha256 (16 hex) of that file, computed by the build. */
  hash: string;
  providers: Provider[];
}

const NEWLINE = 0x0a;

/** The provider fields matching reads (src/pricing/genaiMatch.ts, providerHint, otel): on the first line. */
const MATCHING_KEYS: ReadonlySet<string> = new Set(['id', 'name', 'api_pattern', 'model_match', 'provider_match', 'fallback_model_providers']);

type ProviderFields = Record<string, unknown>;

/** The copy as JSON Lines: tag and providers' matching fields, then each provider's other fields on its own line. */
export function formatDataCopy(copy: GenaiDataCopy): string {
  const heads: ProviderFields[] = [];
  const rests: ProviderFields[] = [];
  for (const provider of copy.providers) {
    const head: ProviderFields = {};
    const rest: ProviderFields = {};
    for (const [key, value] of Object.entries(provider)) {
      // A deferred field keeps its place among the keys (holding 0) and its value goes to the provider's line.
      head[key] = MATCHING_KEYS.has(key) ? value : 0;
      if (!MATCHING_KEYS.has(key)) rest[key] = value;
    }
    heads.push(head);
    rests.push(rest);
  }
  // JSON.stringify writes no raw newline, so each value stays on its one line.
  const lines = [JSON.stringify({ ...copy, providers: heads }), ...rests.map((rest) => JSON.stringify(rest))];
  return `${lines.join('\n')}\n`;
}

/** Makes the deferred fields parse the provider's line on the first read of any, then plain properties. */
function defineLazyFields(provider: ProviderFields, keys: string[], bytes: Buffer, start: number, end: number): void {
  const settle = (key: string, value: unknown): void => {
    Object.defineProperty(provider, key, { value, writable: true, enumerable: true, configurable: true });
  };
  const settleAll = (): void => {
    const rest = JSON.parse(bytes.toString('utf8', start, end)) as ProviderFields;
    for (const key of keys) settle(key, rest[key]);
  };
  for (const key of keys) {
    Object.defineProperty(provider, key, {
      enumerable: true,
      configurable: true,
      get(): unknown {
        settleAll();
        return provider[key];
      },
      set(value: unknown): void {
        settleAll();
        settle(key, value);
      },
    });
  }
}

/** Reads a copy written by formatDataCopy; undefined when it is not one (a copy from an older build). */
export function readDataCopy(data: Uint8Array): GenaiDataCopy | undefined {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let end = bytes.indexOf(NEWLINE);
  if (end < 0) return undefined;
  const copy = JSON.parse(bytes.toString('utf8', 0, end)) as GenaiDataCopy;
  if (!Array.isArray(copy.providers)) return undefined;
  for (const provider of copy.providers as unknown as ProviderFields[]) {
    const start = end + 1;
    end = bytes.indexOf(NEWLINE, start);
    if (end < 0) return undefined;
    const deferred = Object.keys(provider).filter((key) => !MATCHING_KEYS.has(key));
    if (deferred.some((key) => provider[key] !== 0)) return undefined;
    defineLazyFields(provider, deferred, bytes, start, end);
  }
  return end === bytes.length - 1 ? copy : undefined;
}
