/** canonicalJson as the library exports it (src/index.ts). Pure: no node:*. */
import { canonicalJson as canonicalJsonOf } from '../brakes/fingerprint.js';
import { UserError } from '../errors.js';
import { argumentsFile } from './arguments.js';

/**
 * The library's canonicalJson (the brakes' own, brakes/fingerprint.ts, unchanged for them): a value that
 * refers to itself, or nests past what the stack holds, is a UserError naming the argument, not a RangeError.
 */
export function canonicalJson(value: unknown): string {
  try {
    return canonicalJsonOf(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new UserError({ file: argumentsFile('canonicalJson'), field: 'value', code: 'too_deep', message: 'refers to itself, or nests too deep to write as JSON', hint: 'give a JSON value: plain data that holds no reference to itself' });
  }
}
