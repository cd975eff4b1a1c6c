/**
 * FNV-1a over a text's UTF-16 code units, as a whole number (0 … 2^32 − 1): the same text, the same number,
 * on every machine (no node:crypto: the core is pure). `offsetBasis` gives another lane of the same hash.
 */
export const FNV_OFFSET_BASIS = 0x811c9dc5;

export function fnv1a(text: string, offsetBasis = FNV_OFFSET_BASIS): number {
  let hash = offsetBasis;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
