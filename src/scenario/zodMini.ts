/**
 * The scenario schemas are written with zod's mini API (`zod/mini`): the same validators as zod's
 * classic API (one core: the same checks, issues and messages), but a schema is built without the ~45
 * method closures classic gives every instance, so building the scenario and `expect:` schemas on a
 * start costs a fraction (README, Development: bench/startup.mjs). What classic's methods did is here.
 */
import { z } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// zod's English messages, as classic sets them on import (mini leaves the choice to its user): the
// messages scenario files are reported with.
z.config(en());

/** Every schema `described` made, with its description: the published JSON Schema's metadata (scenarioJsonSchema). */
export const DESCRIBED: [z.ZodMiniType, string][] = [];

/** `schema.describe(text)` of classic: a copy of the schema carrying the description. */
export function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  const copy = schema.clone() as T;
  z.globalRegistry.add(copy, { description });
  DESCRIBED.push([copy, description]);
  return copy;
}

/** The parts of a schema's definition (zod's core `_zod.def`, the same under mini and classic) that name fields. */
interface FieldsDef {
  type: string;
  innerType?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
  element?: z.core.$ZodType;
  options?: z.core.$ZodType[];
  discriminator?: string;
}

const defOf = (schema: z.core.$ZodType): FieldsDef => schema._zod.def as unknown as FieldsDef;

/** Whether a union's option is the one for `value`: by the discriminator's value, or (a plain union) the first that takes objects. */
function optionFor(option: z.core.$ZodType, value: unknown, discriminator: string | undefined): boolean {
  const def = defOf(option);
  if (discriminator === undefined) return def.type === 'object' || def.type === 'union';
  const field = def.shape?.[discriminator];
  return field !== undefined && z.safeParse(field, (value as Record<string, unknown> | null | undefined)?.[discriminator]).success;
}

/** The schema `value` is checked against, through optional wrappers and unions; for a discriminated union with no branch for `value`, its discriminator's name. */
function unwrapFor(schema: z.core.$ZodType, value: unknown): z.core.$ZodType | { discriminator: string } | undefined {
  let current: z.core.$ZodType | undefined = schema;
  while (current !== undefined) {
    const def = defOf(current);
    if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') current = def.innerType;
    else if (def.type !== 'union') return current;
    else {
      current = def.options?.find((option) => optionFor(option, value, def.discriminator));
      if (current === undefined && def.discriminator !== undefined) return { discriminator: def.discriminator };
    }
  }
  return undefined;
}

/**
 * The field names the object schema at `path` of `value` takes (a population entry's: those of its
 * behaviour; only `behaviour` while it has none), for "did you mean"; empty when no object schema is there.
 */
export function knownFieldsAt(schema: z.core.$ZodType, value: unknown, path: readonly PropertyKey[]): string[] {
  let current = unwrapFor(schema, value);
  let at = value;
  for (const key of path) {
    if (current === undefined || 'discriminator' in current) return [];
    at = (at as Record<PropertyKey, unknown> | null | undefined)?.[key];
    const def = defOf(current);
    const next = def.type === 'object' ? def.shape?.[String(key)] : def.type === 'array' ? def.element : undefined;
    current = next === undefined ? undefined : unwrapFor(next, at);
  }
  if (current === undefined) return [];
  if ('discriminator' in current) return [current.discriminator];
  const def = defOf(current);
  return def.type === 'object' ? Object.keys(def.shape ?? {}) : [];
}
