/**
 * A limit or whole-number check the schema words itself (`must be at most 9007199254740991 (2^53 − 1), …`)
 * was said without the value given; src/zodWords.ts now names it first (`is 1e305: must be at most …`), as
 * it does its own words (`is 1e9: at most 10,000,000`). A message that says what the value is (`is no HTTP
 * status …`) was said without the value; it now follows it (`is 700, which is no HTTP status …`). A number
 * zod refuses as not finite is named as such.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { zodIssueWords } from '../../src/zodWords.js';

const schema = z.object({
  tokens: z.number().check(z.maximum(100, 'must be at most 100, the most held')),
  whole: z.number().check(z.int('must be a whole number of picodollars')),
  status: z.number().check(z.minimum(100, 'is no HTTP status (100 to 599)'), z.maximum(599, 'is no HTTP status (100 to 599)')),
  plain: z.number().check(z.maximum(10)),
  cost: z.number(),
});

function words(value: Record<string, unknown>, writtenAt?: (path: readonly PropertyKey[]) => string | undefined) {
  const full = { tokens: 1, whole: 1, status: 200, plain: 1, cost: 1, ...value };
  const parsed = schema.safeParse(full);
  expect(parsed.success).toBe(false);
  return parsed.error!.issues.map((issue) => zodIssueWords(issue, { schema, value: full, ...(writtenAt === undefined ? {} : { writtenAt }) }));
}

describe("zodWords: a schema's own words name the value given", () => {
  it('a limit of its own: the value first, as written when the reader knows it', () => {
    expect(words({ tokens: 1e305 })).toEqual([{ code: 'too_big', message: 'is 1e+305: must be at most 100, the most held' }]);
    expect(words({ tokens: 1e305 }, () => '1e305')).toEqual([{ code: 'too_big', message: 'is 1e305: must be at most 100, the most held' }]);
  });

  it('a whole-number check of its own: the value first, its words kept', () => {
    expect(words({ whole: 0.5 })).toEqual([{ code: 'invalid_type', message: 'is 0.5: must be a whole number of picodollars' }]);
  });

  it('a message that says what the value is follows the value (`is 700, which is no HTTP status …`); zod-worded limits are worded as before', () => {
    expect(words({ status: 700 })).toEqual([{ code: 'too_big', message: 'is 700, which is no HTTP status (100 to 599)' }]);
    expect(words({ status: 50 }, () => '5e1')).toEqual([{ code: 'too_small', message: 'is 5e1, which is no HTTP status (100 to 599)' }]);
    expect(words({ plain: 1e9 }, () => '1e9')).toEqual([{ code: 'too_big', message: 'is 1e9: at most 10' }]);
  });

  it('a number zod refuses as not finite is named as such', () => {
    expect(words({ cost: Infinity })).toEqual([{ code: 'invalid_type', message: 'is Infinity: must be a finite number' }]);
  });
});
