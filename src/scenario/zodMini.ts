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
