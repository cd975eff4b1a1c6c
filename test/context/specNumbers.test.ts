/**
 * `--context` numbers follow the one number rule (io/numberText.ts): counts are whole numbers, `1e3`
 * allowed as every count flag allows it; `trigger=R%` is a percentage as the share rule reads one (`.5%`,
 * `5.%`, `8e1%`). A refusal says what to write.
 */
import { describe, expect, it } from 'vitest';
import { contextSpecOf, parseContextSpec } from '../../src/context/strategy.js';
import { userErrorOf } from '../helpers.js';
import { cli } from '../cli/run.js';

const messageOf = (spec: string) => userErrorOf(() => parseContextSpec(spec)).issues[0]!.message;

describe('--context numbers: the shared number syntax', () => {
  it('percentages as the share rule reads them: .5%, 5.%, 8e1%, 80 %', () => {
    expect(parseContextSpec('summary:trigger=.5%,keep=2,tokens=200').summary!.triggerPercent).toBe(0.5);
    expect(parseContextSpec('summary:trigger=5.%,keep=2,tokens=200').summary!.triggerPercent).toBe(5);
    expect(parseContextSpec('summary:trigger=8e1%,keep=2,tokens=200').summary!.triggerPercent).toBe(80);
    expect(parseContextSpec('hybrid:mask=2,trigger=80 %,keep=2,tokens=200').summary!.triggerPercent).toBe(80);
  });

  it('counts as whole numbers with an exponent if wanted: mask:1e1, trigger=8e3, keep=1e0, tokens=.5e3, window:2e0', () => {
    expect(parseContextSpec('mask:1e1')).toEqual({ kind: 'mask', maskSteps: 10 });
    expect(parseContextSpec('mask:3,placeholder=0e0')).toEqual({ kind: 'mask', maskSteps: 3, placeholderTokens: 0 });
    expect(parseContextSpec('summary:trigger=8e3,keep=1e0,tokens=.5e3').summary).toEqual({ triggerTokens: 8000, keepSteps: 1, summaryTokens: 500 });
    expect(parseContextSpec('window:2e0')).toEqual({ kind: 'window', windowSteps: 2 });
  });

  it('a strategy written back (contextSpecOf) reads as itself, a tiny percentage printed with an exponent too', () => {
    for (const spec of ['summary:trigger=1e-7%,keep=2,tokens=200', 'hybrid:mask=3,placeholder=5,trigger=0.5%,keep=2,tokens=200', 'mask:10']) {
      const strategy = parseContextSpec(spec);
      expect(parseContextSpec(contextSpecOf(strategy))).toEqual(strategy);
    }
    expect(contextSpecOf(parseContextSpec('summary:trigger=1e-7%,keep=2,tokens=200'))).toBe('summary:trigger=1e-7%,keep=2,tokens=200');
  });

  it('refusals say what to write', () => {
    expect(messageOf('window:2.5')).toBe("'window:2.5': K must be a whole number greater than 0 (got '2.5'; e.g. window:5)");
    expect(messageOf('mask:1e400')).toBe("'mask:1e400': M must be a whole number greater than 0 (got '1e400'; e.g. mask:3)");
    expect(messageOf('mask:3,placeholder=-1')).toBe("'mask:3,placeholder=-1': placeholder must be a whole number, 0 or more (got '-1'; e.g. placeholder=12)");
    expect(messageOf('summary:trigger=0.8,keep=2,tokens=200')).toBe("'summary:trigger=0.8,keep=2,tokens=200': trigger must be a whole number greater than 0 (got '0.8'; e.g. trigger=8000 (tokens, 8e3 too) or trigger=80% (of the context window))");
    expect(messageOf('summary:trigger=8e3,keep=0x2,tokens=200')).toBe("'summary:trigger=8e3,keep=0x2,tokens=200': keep must be a whole number greater than 0 (got '0x2'; e.g. keep=3)");
    expect(messageOf('summary:trigger=0%,keep=2,tokens=200')).toBe("'summary:trigger=0%,keep=2,tokens=200': trigger must be above 0% and at most 100% of the context window (got '0%'; e.g. trigger=80%, trigger=.5% or trigger=8e1%)");
    expect(messageOf('summary:trigger=1e-400%,keep=2,tokens=200')).toBe("'summary:trigger=1e-400%,keep=2,tokens=200': trigger must be above 0% and at most 100% of the context window; '1e-400%' reads as 0% in double precision (e.g. trigger=.5%)");
    for (const bad of ['-5%', '1e3%', '%', '5%%', 'x%']) expect(messageOf(`summary:trigger=${bad},keep=2,tokens=200`)).toContain(`trigger must be above 0% and at most 100% of the context window (got '${bad}'`);
  });

  it('on the command line: trigger=.5% and mask:1e1 run; the refusal names --context with the syntax as its hint', async () => {
    const trace = 'scenarios/recorded-pair.jsonl';
    for (const [spec, shown] of [['summary:trigger=.5%,keep=2,tokens=200', 'summary:trigger=0.5%,keep=2,tokens=200'], ['mask:1e1', 'mask:10']] as const) {
      const r = await cli('replay', trace, '--context', spec, '--format', 'json');
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).settings.contextSettings.context).toBe(shown);
    }
    const r = await cli('replay', trace, '--context', 'mask:1.5');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^loopcost: <command line> field '--context': 'mask:1\.5': M must be a whole number greater than 0 \(got '1\.5'; e\.g\. mask:3\) \(write 'full', 'window:K'/);
  });
});
