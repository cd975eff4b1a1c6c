/**
 * The limits every reader applies to what it accepts, in one place, so that a hostile or absurd file is
 * refused with the same rule whatever its format: bytes a file and one record may hold, nesting depth of
 * JSON and YAML values, YAML aliases, and the magnitude of counts and amounts.
 */

const MB = 1024 * 1024;

/** What one input may hold and how long a pipe may keep us waiting; the CLI's flags can raise the sizes. */
export interface ReadLimits {
  /** Most bytes one input file may hold once decompressed (`--max-input-mb`): a gzip bomb stops here. */
  maxInputBytes: number;
  /**
   * Most bytes one record may hold (`--max-line-mb`): a line of JSONL, or a whole file for the formats
   * that are one document (a trajectory, a cassette, an OTLP export). Checked before any string is built.
   */
  maxLineBytes: number;
  /** How long a pipe (a FIFO, standard input) may stay without a first byte before it is refused. */
  pipeWaitMs: number;
}

export const DEFAULT_READ_LIMITS: Readonly<ReadLimits> = Object.freeze({
  maxInputBytes: 4096 * MB,
  maxLineBytes: 128 * MB,
  pipeWaitMs: 10_000,
});

/** Limits with the defaults for what is not given. */
export function readLimits(given: Partial<ReadLimits> = {}): ReadLimits {
  return { ...DEFAULT_READ_LIMITS, ...given };
}

/** A byte count as the limits' messages write it: `128 MB`. */
export function megabytes(bytes: number): string {
  // Below a tenth of a MB one decimal would read 0.0 MB: said in bytes.
  if (bytes < MB / 10) return `${bytes.toLocaleString('en-US')} bytes`;
  const mb = bytes / MB;
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

export const BYTES_PER_MB = MB;

/** Deepest nesting of arrays and objects any reader accepts (JSON, YAML, tool arguments). */
export const MAX_NESTING_DEPTH = 256;

/**
 * The largest price file (`--prices`, `--prices-override`) read: LiteLLM's whole table is ~1.5 MB, so 64 MB
 * leaves room for any real one while a wrong path (a disk image, a log) is refused before it is read whole.
 */
export const MAX_PRICE_FILE_BYTES = 64 * MB;

/**
 * Deepest nesting of a tool call's arguments: a native record holds them 4 levels down (record,
 * toolCalls, tool call, arguments), so arguments any reader accepts are always written back readable.
 */
export const MAX_ARGUMENTS_DEPTH = MAX_NESTING_DEPTH - 4;

/** Most YAML alias expansions one document may use (the "billion laughs" ladder is refused). */
export const MAX_YAML_ALIASES = 100;

/**
 * Largest token count (and call count) any reader accepts: 2^53 − 1, the largest integer a JSON number
 * holds exactly. A count past it would be written back with lost precision.
 */
export const MAX_COUNT = Number.MAX_SAFE_INTEGER;

/** A token count as any reader accepts one: a whole number from 0 to MAX_COUNT (not null, negative, fractional, non-finite nor a string). */
export function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * Largest USD amount (a recorded cost) any reader accepts: $9,007.199254740991, the most that integer
 * picodollars hold exactly in a double. Amounts are summed exactly in picodollars, so more cannot be.
 */
export const MAX_USD = Number.MAX_SAFE_INTEGER / 1e12;

/** Largest latency in milliseconds any reader accepts (2^53 ms, about 285,000 years). */
export const MAX_LATENCY_MS = Number.MAX_SAFE_INTEGER;

/**
 * Most milliseconds a latency model (`--latency-model`, a scenario's `latency:`) gives one call, one token
 * or one tool call: a day. No one models more, and it keeps every modelled sum of realistic token counts
 * far within MAX_LATENCY_MS, what a trace holds (`call=1e300` was written as `1e+300`, and
 * `output-token=1e307` overflowed to `null`).
 */
export const MAX_LATENCY_PART_MS = 86_400_000;

/** The limit as messages say it. */
export const MAX_LATENCY_PART_TEXT = `${MAX_LATENCY_PART_MS} ms (a day)`;

/**
 * The path (e.g. `$.a.b[3]`) at which `value` nests deeper than `maxDepth`, or undefined when it does
 * not. Iterative, so a value nested far past the limit cannot overflow the stack while being checked.
 */
export function pathPastDepth(value: unknown, maxDepth = MAX_NESTING_DEPTH): string | undefined {
  // Most values are shallow: say so without building paths (the walk below names the place).
  if (!nestsPast(value, 0, maxDepth)) return undefined;
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 0, path: '$' }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= maxDepth) return item.path;
    if (Array.isArray(item.value)) {
      item.value.forEach((child, i) => stack.push({ value: child, depth: item.depth + 1, path: `${item.path}[${i}]` }));
    } else {
      for (const [key, child] of Object.entries(item.value as Record<string, unknown>)) {
        stack.push({ value: child, depth: item.depth + 1, path: `${item.path}.${key}` });
      }
    }
  }
  return undefined;
}

/** Whether an object or array sits at depth ≥ maxDepth; recursion stops there, so the stack stays ≤ maxDepth deep. */
function nestsPast(value: unknown, depth: number, maxDepth: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth >= maxDepth) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (nestsPast(value[i], depth + 1, maxDepth)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) if (Object.hasOwn(record, key) && nestsPast(record[key], depth + 1, maxDepth)) return true;
  return false;
}

/** Most steps a scenario's `hardCapSteps` may set (no synthetic run goes past its cap). */
export const MAX_HARD_CAP_STEPS = 1_000_000;

/** Most runs a scenario is run for (--runs, or a scenario file's `runs`). */
export const MAX_SCENARIO_RUNS = 10_000_000;
