/**
 * The `expect.population.falseStopRate` description (and the published schema generated from it) says what
 * `check` counts (groundTruth.ts): synthetic runs and generated traces by ground truth — runs a brake stops
 * before the step their task is done at, among those whose task is done with no brakes. It said only "the
 * runs completing without brakes that a brake stops", the recorded-run rule.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scenarioJsonSchema } from '../../src/scenario/schema.js';

type Node = { description?: string; properties?: Record<string, Node> };

const falseStopRate = (schema: Node): string => schema.properties!.expect!.properties!.population!.properties!.falseStopRate!.description!;

describe('falseStopRate is described as check counts it', () => {
  it('by ground truth for synthetic runs and generated traces, in the validator and the published schema', () => {
    const fromValidator = falseStopRate(scenarioJsonSchema() as Node);
    expect(fromValidator).toMatch(/^share of the runs completing without brakes that a brake stops \(synthetic runs and generated traces, by ground truth: of the runs whose task is done without brakes, those a brake stops before the step it is done at\)/);
    expect(falseStopRate(JSON.parse(readFileSync('schema/scenario-v1.schema.json', 'utf8')) as Node)).toBe(fromValidator);
  });
});
