/**
 * The limits every reader applies to what it accepts, in one place, so that a hostile or absurd file is
 * refused with the same rule whatever its format: nesting depth of JSON and YAML values, YAML aliases.
 */

/** Deepest nesting of arrays and objects any reader accepts (JSON, YAML, tool arguments). */
export const MAX_NESTING_DEPTH = 256;

/** Most YAML alias expansions one document may use (the "billion laughs" ladder is refused). */
export const MAX_YAML_ALIASES = 100;

/**
 * The path (e.g. `$.a.b[3]`) at which `value` nests deeper than `maxDepth`, or undefined when it does
 * not. Iterative, so a value nested far past the limit cannot overflow the stack while being checked.
 */
export function pathPastDepth(value: unknown, maxDepth = MAX_NESTING_DEPTH): string | undefined {
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
