/**
 * The scenario schemas are written with zod's mini API (`zod/mini`): the same validators as zod's
 * classic API (one core: the same checks, issues and messages), but a schema is built without the ~45
 * method closures classic gives every instance, so building the scenario and `expect:` schemas on a
 * start costs a fraction (README, Development: bench/startup.mjs). What classic's methods did is here.
 */
import { z } from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { schemaAt } from '../zodWords.js';

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

/**
 * The field names the object schema at `path` of `value` takes (a population entry's: those of its
 * behaviour; only `behaviour` while it has none), for "did you mean"; empty when no object schema is there.
 */
export function knownFieldsAt(schema: z.core.$ZodType, value: unknown, path: readonly PropertyKey[]): string[] {
  const current = schemaAt(schema, value, path);
  if (current === undefined) return [];
  if ('discriminator' in current) return [current.discriminator];
  const def = current._zod.def as unknown as { type: string; shape?: Record<string, unknown> };
  return def.type === 'object' ? Object.keys(def.shape ?? {}) : [];
}
