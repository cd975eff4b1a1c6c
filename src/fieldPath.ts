/**
 * An input issue's field, from a path of keys and indices (zod's issue path, a YAML node's, a JSON walk's):
 * `configurations[0].costPerRunUsd.p95`. Written once for every reader that names a field.
 */

/**
 * `messages[2].role` from `['messages', 2, 'role']`; with `after`, the path continues that field
 * (`calls[3]` + `['toolCalls', 0]` → `calls[3].toolCalls[0]`).
 */
export function fieldPath(path: readonly PropertyKey[], after?: string): string {
  let out = after ?? '';
  path.forEach((part, i) => {
    out += typeof part === 'number' ? `[${part}]` : `${i === 0 && after === undefined ? '' : '.'}${String(part)}`;
  });
  return out;
}
