/**
 * A price table with some models overridden (`--prices-override FILE`): a model the LiteLLM file names
 * is priced by the file, every other model by the base table (the bundled data, or a `--prices` file).
 * This is how negotiated or current rates (e.g. from `loopcost prices derive`) join the bundled table.
 */
import type { LiteLlmPriceTable } from './litellm.js';
import type { ModelPricing, PriceSource, PriceTable } from './types.js';

export class OverriddenPriceTable implements PriceTable {
  readonly source: PriceSource;

  constructor(
    private readonly base: PriceTable,
    private readonly overrides: LiteLlmPriceTable,
  ) {
    this.source = Object.freeze({ ...base.source, overrides: { name: overrides.source.name, hash: overrides.source.hash } });
  }

  resolve(model: string, provider?: string, recordedAt?: string): ModelPricing {
    return this.overrides.tryResolve(model, provider) ?? this.base.resolve(model, provider, recordedAt);
  }

  modelNames(): string[] {
    return [...new Set([...this.overrides.modelNames(), ...this.base.modelNames()])];
  }
}
