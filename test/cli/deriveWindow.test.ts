/**
 * derive → fit → project keeps the recorded runs' long tail: `prices derive` writes no context window its
 * own runs passed (as the bundled table's 64,000 for DeepSeek was, before loopcost's correction to 128,000), and `fit`
 * warns when recorded prompts pass the window its profile's synthetic runs are held to.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { derivedWindow } from '../../src/cli/actions/pricesDerive.js';
import { cli, tempDir } from './run.js';

const MINI = '../shared/traces/mini-swe-agent';
const CHAT = 'deepseek/deepseek-chat';

/** The shared runs' prices with the bundled table's window, as derive wrote it before. */
function tableWindowPrices(dir: string): string {
  const entry = { input_cost_per_token: 2.8e-7, cache_read_input_token_cost: 2.8e-8, output_cost_per_token: 4.2e-7, max_input_tokens: 64000, litellm_provider: 'deepseek', mode: 'chat' };
  const path = join(dir, 'table-window.json');
  writeFileSync(path, JSON.stringify({ [CHAT]: entry, 'deepseek/deepseek-reasoner': entry }));
  return path;
}

/** `prices derive MINI --out prices.json` as text, run once: one test reads its report, the other fits with its file. */
let derived: Promise<{ stdout: string; prices: string }> | undefined;
function derivedText(): Promise<{ stdout: string; prices: string }> {
  return (derived ??= (async () => {
    const prices = join(tempDir(), 'prices.json');
    const r = await cli('prices', 'derive', MINI, '--out', prices);
    expect(r.code, r.stderr).toBe(0);
    return { stdout: r.stdout, prices };
  })());
}

describe('prices derive writes no window its own runs passed', () => {
  it('the table window unless a call held more; then the largest prompt plus the default max_tokens; none when the table knows none', () => {
    expect(derivedWindow('m', 64_000, { promptTokens: 60_000, callTokens: 60_500 }).writtenTokens).toBe(64_000);
    expect(derivedWindow('m', 64_000, { promptTokens: 85_156, callTokens: 85_224 }).writtenTokens).toBe(85_156 + 4096);
    expect(derivedWindow('m', undefined, { promptTokens: 85_156, callTokens: 85_224 }).writtenTokens).toBeNull();
  });

  it("on the shared mini-swe-agent runs (prompts up to 85,156 tokens): the table's window, 128,000 since DeepSeek V3.1 (loopcost's correction; the table says 64,000), holds them all", async () => {
    const dir = tempDir();
    const out = join(dir, 'prices.json');
    const result = await cli('prices', 'derive', MINI, '--out', out, '--format', 'json');
    expect(result.code, result.stderr).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8'));
    expect(file[CHAT].max_input_tokens).toBe(128_000);
    const report = JSON.parse(result.stdout);
    expect(report.contextWindows.find((w: { model: string }) => w.model === CHAT)).toEqual({ model: CHAT, tableTokens: 128_000, largestPromptTokens: 85_156, largestCallTokens: 85_224, writtenTokens: 128_000 });
    for (const w of report.contextWindows) expect(w.writtenTokens).toBeGreaterThanOrEqual(w.largestCallTokens);
    // The text report (on stdout, --out or not) says no window unlike the table's.
    expect((await derivedText()).stdout).not.toMatch(/context window .* not the bundled table's/);
  });
});

describe('fit warns when recorded prompts pass the window its synthetic runs are held to', () => {
  it("under the table's 64,000: warned in the profile and on stderr; under the derived window: not, and the tail is kept", async () => {
    const dir = tempDir();
    const cut = await cli('fit', MINI, '--prices-override', tableWindowPrices(dir), '--out', join(dir, 'cut.yaml'));
    expect(cut.code, cut.stderr).toBe(0);
    const warning = /recorded prompts of runs made on deepseek\/deepseek-chat, the profile's model, pass its context window less max_tokens \(64,000 − 4,096 = 59,904 tokens\) in 2 of the 23 runs made on it \(up to 85,156 tokens\)/;
    expect(cut.stderr.replace(/\s+/g, ' ')).toMatch(warning);
    expect(readFileSync(join(dir, 'cut.yaml'), 'utf8')).toMatch(warning);
    const { prices } = await derivedText();
    const kept = await cli('fit', MINI, '--prices-override', prices, '--out', join(dir, 'kept.yaml'), '--report', '--format', 'json');
    expect(kept.code, kept.stderr).toBe(0);
    const report = JSON.parse(kept.stdout);
    expect(report.warnings.map((w: { code: string }) => w.code)).not.toContain('recorded_past_profile_window');
    const p95 = report.rows.find((r: { metric: string; quantile: string }) => r.metric === 'costPerRunUsd' && r.quantile === 'p95');
    expect(Math.abs(p95.relativeGap)).toBeLessThan(0.05);
  });
});
