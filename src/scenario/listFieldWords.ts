/**
 * What a population entry's list and count fields take, said where the generic words ("give a list", "give a
 * whole number") leave a newcomer guessing a list of what, or a number of what (docs/scenarios.md, Population
 * entries): `variants: 4` is told a list of argument objects is wanted, as scenarios/springfield-weather.yaml gives.
 */
import type { IssueWords } from '../zodWords.js';
import type { ZodIssue } from './issueWords.js';

/** Each field's wanted value, in place of the generic words. */
const WANTED: Record<string, { generic: string; wanted: string }> = {
  variants: {
    generic: 'a list',
    wanted: 'a list of argument objects, one per attempt, in order (- { city: Springfield } then - { city: "Springfield, IL" }), as scenarios/springfield-weather.yaml shows; later attempts add an attempt number to the last',
  },
  cycle: {
    generic: 'a list',
    wanted: 'a list of argument objects, one per call of the cycle, in order (- { sort: type } then - { sort: date }); one item: the same call every time',
  },
  phrasings: {
    generic: 'a whole number',
    wanted: 'a whole number: how many wordings of the question the asker uses in turn (1 or more; default 1), not the wordings themselves',
  },
};

/** `words` with the field's own wanted value in place of the generic one (a wrong type only); other issues unchanged. */
export function listFieldWords(issue: ZodIssue, words: IssueWords): IssueWords {
  const field = issue.path[issue.path.length - 1];
  const own = typeof field === 'string' && Object.hasOwn(WANTED, field) ? WANTED[field]! : undefined;
  const generic = own === undefined ? undefined : `: give ${own.generic}`;
  if (own === undefined || issue.code !== 'invalid_type' || !words.message.includes(generic!)) return words;
  return { ...words, message: words.message.replace(generic!, `: give ${own.wanted}`) };
}
