/** The issues of the UserError `run` throws; anything else thrown is rethrown, and nothing thrown fails the test. */
import { UserError } from '../../src/errors.js';

export function issuesOf(run: () => unknown): UserError['issues'] {
  try {
    run();
  } catch (error) {
    if (error instanceof UserError) return error.issues;
    throw error;
  }
  throw new Error('not refused');
}
