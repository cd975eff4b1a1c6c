/**
 * Seeded randomness for synthetic agents and `project`'s Monte Carlo (pure-rand's xoroshiro128+, never
 * Math.random). Every draw belongs to a stream named by (seed, run, purpose, index), so a run's
 * randomness depends only on the seed and its index, and each of its actions on the action's own
 * index: the same agent met under two brake or context settings draws the same plan and the same
 * tokens for the same action, and differs only where its context made it act differently (a re-fetch
 * draws from its own stream, not the plan's).
 */
import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from 'pure-rand';
import { UserError } from '../errors.js';
import { argumentPlace } from '../options/given.js';
import { shown } from '../options/rules.js';

/** What a stream is for; one number each so stream seeds never collide across purposes. */
export const STREAM = Object.freeze({
  /** Which population entry a run belongs to. */
  pick: 1,
  /** The run's plan: step counts, prompt head, the moment it gets stuck. */
  plan: 2,
  /** One productive action (index = the action's place in the plan). */
  action: 3,
  /** Extra actions the context caused (a re-fetch, a retry after a backtrack), by their own count. */
  extra: 4,
  /** Per-step coin flips that do not belong to a planned action (unparseable, backtrack). */
  flip: 5,
  /** The run's prompt head (system and goal tokens), drawn by the runner. */
  head: 6,
  /** `project`: a trial's days (index: none; run = the trial). */
  projectDays: 101,
  /** `project`: a bootstrap resample of the per-run costs (run = the resample). */
  projectBootstrap: 102,
  /** `check`: a bootstrap resample of a scenario's synthetic runs, for the noise of its figures (run = the resample). */
  checkBootstrap: 103,
  /** `sweep --target-completion`: a paired bootstrap resample of the runs, for how sure its recommendation is (run = the resample). */
  sweepBootstrap: 104,
} as const);
export type StreamPurpose = (typeof STREAM)[keyof typeof STREAM];

/**
 * murmur3's 32-bit finaliser over a running hash: a well-mixed seed from several integers. Its 32 bits
 * as a signed integer (what the next mix and the generator take): a small integer, not a boxed number.
 */
function mix(hash: number, value: number): number {
  let h = Math.imul(hash ^ (value | 0), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** streamSeed's 32 bits as a signed integer. */
function streamBits(seed: number, run: number, purpose: StreamPurpose, index: number): number {
  const high = Math.floor(seed / 2 ** 32);
  let h = mix(0x9e3779b9, seed >>> 0);
  h = mix(h, high);
  h = mix(h, run);
  h = mix(h, purpose);
  return mix(h, index);
}

/** The 32-bit generator seed of one stream. Seeds up to 2^53 are used whole (high and low words). */
export function streamSeed(seed: number, run: number, purpose: StreamPurpose, index = 0): number {
  return streamBits(seed, run, purpose, index) >>> 0;
}

const TWO_26 = 2 ** 26;
const TWO_27 = 2 ** 27;

const MAX_SEED32 = 2 ** 32 - 1;

/**
 * A stream of draws. Mutates its generator in place (pure-rand's unsafe API), one stream per owner. Its
 * seed is 32 bits, a whole number from 0 to 2^32 − 1 (streamSeed gives one); any other value (NaN, `'x'`,
 * −1, 2^32) would be read as some other seed, two of them as the same one: a UserError (`<Rng arguments>`).
 */
export class Rng {
  private readonly generator: RandomGenerator;
  constructor(seed32: number) {
    if (seed32 >>> 0 !== seed32) refuseSeed(seed32);
    this.generator = xoroshiro128plus(seed32 | 0);
  }

  static stream(seed: number, run: number, purpose: StreamPurpose, index = 0): Rng {
    return new Rng(streamBits(seed, run, purpose, index) >>> 0);
  }

  /**
   * Uniform in [0, 1) with 53 random bits: the same numbers, from the same two outputs of the generator,
   * as `unsafeUniformIntDistribution(0, 2^26 − 1)` then `(0, 2^27 − 1)` (pure-rand 7, the first form;
   * test/synthetic/random.test.ts holds them equal). For a range of 2^k (k ≤ 32) that distribution
   * rejects no output (2^32 is a multiple of 2^k) and returns (out + 2^31) mod 2^k, which is out's low k
   * bits: so the draw masks the two outputs and skips two calls and a division per number.
   */
  next(): number {
    const generator = this.generator;
    const high = generator.unsafeNext() & (TWO_26 - 1);
    const low = generator.unsafeNext() & (TWO_27 - 1);
    return (high * TWO_27 + low) / 2 ** 53;
  }

  /** `next()` as pure-rand's distribution computes it (what the masked draw is held equal to). */
  nextByDistribution(): number {
    const high = unsafeUniformIntDistribution(0, TWO_26 - 1, this.generator);
    const low = unsafeUniformIntDistribution(0, TWO_27 - 1, this.generator);
    return (high * TWO_27 + low) / 2 ** 53;
  }

  /**
   * An index in [0, n): one 32-bit output scaled by multiply-shift (a bias of at most n / 2^32, far below
   * a Monte Carlo's own error), for draws by the million (`project`'s days and bootstrap).
   */
  below(n: number): number {
    return Math.floor(((this.generator.unsafeNext() >>> 0) * n) / 4294967296);
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return unsafeUniformIntDistribution(min, max, this.generator);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return p > 0 && this.next() < p;
  }

  /** A standard normal draw (Box–Muller; 1 − u keeps the logarithm finite). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

function refuseSeed(seed32: unknown): never {
  const message = `${shown(seed32)} is not a 32-bit seed, a whole number from 0 to ${MAX_SEED32}`;
  throw new UserError({ ...argumentPlace('Rng', 'seed32'), code: 'invalid_number', message, hint: 'Rng.stream(seed, run, purpose) takes any seed up to 2^53 and names the stream; streamSeed(…) gives the 32 bits' });
}
