/**
 * The first value of a list met again, by what each means (`5` and `05` are one step cap): one rule for
 * every list that refuses a value given twice (`--grid KEY=…` values, `--compare-context` strategies).
 */

/** The first meaning met again (`twice`) and where it was first met, if any. */
export function firstRepeat(meanings: readonly string[]): { first: number; twice: number } | undefined {
  const twice = meanings.findIndex((meaning, i) => meanings.indexOf(meaning) < i);
  return twice < 0 ? undefined : { first: meanings.indexOf(meanings[twice]!), twice };
}

/**
 * How a repeat is said: `'5' is given twice` or `'5' and '05' are the same <what>`, with the values given
 * once (the first of each meaning), for the hint.
 */
export function repeatWords(values: readonly string[], meanings: readonly string[], what: string): { same: string; once: string[] } | undefined {
  const repeat = firstRepeat(meanings);
  if (repeat === undefined) return undefined;
  const first = values[repeat.first]!;
  const value = values[repeat.twice]!;
  const same = first === value ? `'${value}' is given twice` : `'${first}' and '${value}' are the same ${what}`;
  return { same, once: values.filter((_, i) => meanings.indexOf(meanings[i]!) === i) };
}
