/**
 * A name (a key, a model, a field) as every message shows it, whatever read it: JSON readers, importers,
 * price files. Long names are cut, so a hostile input never makes a message its own size.
 */

/** Characters of a name a message shows; a longer one is cut, its length said. */
export const MAX_SHOWN_NAME = 100;

/** A name as messages show it: whole up to MAX_SHOWN_NAME characters, else its start, `…` and its length. */
export function shownName(name: string): string {
  if (name.length <= MAX_SHOWN_NAME) return name;
  return `${name.slice(0, MAX_SHOWN_NAME)}… (${name.length.toLocaleString('en-US')} characters)`;
}
