/**
 * YAML merge keys (`- <<: *base` then the entry's own fields): the `yaml` reader takes YAML 1.2, which has
 * none, so `<<` is read as a key like any other and the entry it stands in seems to lack every field it
 * would have merged (`missing required field behaviour`). Each is refused by name instead, at its line,
 * with what works: an alias of a whole value (`- *base`), or the fields written out.
 */

/** The YAML merge key. */
export const MERGE_KEY = '<<';

/** The paths of the mappings in `value` that hold a `<<` key, in document order; at most `limit`. */
export function mergeKeyParents(value: unknown, limit: number): PropertyKey[][] {
  const found: PropertyKey[][] = [];
  const walk = (node: unknown, path: PropertyKey[]): void => {
    if (found.length >= limit || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, [...path, i]));
      return;
    }
    if (Object.hasOwn(node, MERGE_KEY)) found.push(path);
    for (const [key, item] of Object.entries(node)) if (key !== MERGE_KEY) walk(item, [...path, key]);
  };
  walk(value, []);
  return found.slice(0, limit);
}

/** The issue's code and words (its file, line and field are the caller's). */
export const MERGE_KEY_ISSUE = {
  code: 'merge_key',
  message: 'is a YAML merge key (<<: *anchor), which scenario files do not support (they are read as YAML 1.2, which has none)',
  hint: 'write the fields out in each entry, or alias a whole entry or value (- *base) where it is the same',
};
