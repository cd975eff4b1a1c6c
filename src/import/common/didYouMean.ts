/**
 * "Did you mean" for unknown fields in a record, as commander gives for flags: the fields a zod object
 * schema takes at a path (through optional, arrays and discriminated unions); nearestName.ts's
 * unknownFieldsHint names the nearest of them to each unknown key.
 */
import { z } from 'zod';

function unwrap(schema: z.ZodType, value: unknown): z.ZodType {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) current = current.unwrap() as z.ZodType;
    else if (current instanceof z.ZodDiscriminatedUnion) {
      const type = (value as { type?: unknown } | null)?.type;
      const option = (current.options as z.ZodType[]).find((o) => o instanceof z.ZodObject && (o.shape as Record<string, z.ZodType>).type?.safeParse(type).success);
      if (!option) return current;
      current = option;
    } else return current;
  }
}

/** The field names the object schema at `path` (within `value`) takes; empty when there is none. */
export function knownFieldsAt(schema: z.ZodType, value: unknown, path: readonly PropertyKey[]): string[] {
  let current = unwrap(schema, value);
  let at = value;
  for (const key of path) {
    at = (at as Record<PropertyKey, unknown> | null | undefined)?.[key];
    if (current instanceof z.ZodObject) current = unwrap((current.shape as Record<string, z.ZodType>)[String(key)] ?? z.never(), at);
    else if (current instanceof z.ZodArray) current = unwrap(current.element as z.ZodType, at);
    else return [];
  }
  return current instanceof z.ZodObject ? Object.keys(current.shape as object) : [];
}
