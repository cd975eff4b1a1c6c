/**
 * Constants the library exports are frozen through and through: a caller that writes to one (NO_BRAKES,
 * a preset, the read limits) gets a TypeError in strict mode, never a change to every later run. Pure.
 */

/** `value` with it and every object or array it holds frozen (functions are left as they are); returns it. */
export function deepFreeze<T>(value: T, seen: WeakSet<object> = new WeakSet()): T {
  if (value === null || typeof value !== 'object') return value;
  const object = value as object;
  if (seen.has(object)) return value;
  seen.add(object);
  Object.freeze(object);
  for (const key of Reflect.ownKeys(object)) deepFreeze((object as Record<PropertyKey, unknown>)[key], seen);
  return value;
}
