/**
 * `JSON.stringify(value, null, 2) + '\n'` in pieces, the array at `value[key]` given as items made one at a
 * time (a report of a million runs is never held whole, neither its records nor its text). The text is
 * the same as the whole value's: each item is stringified alone and indented to its depth.
 */
const MARK = '\u0000items\u0000';

export function* jsonPieces(value: Record<string, unknown>, key: string, items: Iterable<unknown>): Generator<string> {
  const text = JSON.stringify({ ...value, [key]: MARK }, null, 2);
  const placeholder = `${JSON.stringify(key)}: ${JSON.stringify(MARK)}`;
  const at = text.indexOf(placeholder);
  if (at < 0 || text.indexOf(placeholder, at + 1) >= 0) throw new Error(`jsonPieces: ${key} is not a top-level field`);
  yield `${text.slice(0, at)}${JSON.stringify(key)}: [`;
  let first = true;
  for (const item of items) {
    yield `${first ? '' : ','}\n    ${JSON.stringify(item, null, 2).replaceAll('\n', '\n    ')}`;
    first = false;
  }
  yield `${first ? ']' : '\n  ]'}${text.slice(at + placeholder.length)}\n`;
}
