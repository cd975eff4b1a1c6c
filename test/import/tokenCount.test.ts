import anthropicTokenizer from '@anthropic-ai/tokenizer';
import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import {
  CLAUDE_ASSISTANT_TURN,
  CLAUDE_HUMAN_TURN,
  REPLY_PRIMING_TOKENS,
  chatMessageTokens,
  countChatTokens,
  countTokens,
  countTokensWith,
  encodingForModel,
  isApproximateTokenizer,
  replyPrimingTokens,
} from '../../src/import/tokenCount.js';

const CLAUDE_NAMES = [
  'claude-3-5-sonnet-20240620',
  'anthropic/claude-sonnet-4.6',
  'openrouter/anthropic/claude-3.5-sonnet',
  'anthropic.claude-3-5-sonnet-20240620-v1:0',
  'bedrock:anthropic.claude-3-haiku-20240307-v1:0',
  'us.anthropic.claude-3-7-sonnet-20250219-v1:0',
  'vertex_ai/claude-3-5-sonnet@20240620',
  'Claude-Opus-4-1',
  'claude-2.1',
  'anthropic.claude-v2:1',
  'claude-instant-1.2',
];

/** Python code, as in the SWE-agent runs: the three tokenizers disagree on it. */
const CODE = 'def lock(file, flags):\n        fcntl.flock(file.fileno(), flags)\n';

describe('tokenCount: encoding per model family', () => {
  it('Claude names, provider-prefixed, Bedrock and Vertex ids included, use the Anthropic tokenizer', () => {
    for (const model of CLAUDE_NAMES) expect(encodingForModel(model), model).toBe('claude');
  });

  it('OpenAI families keep their gpt-tokenizer encodings; other families fall back to cl100k_base', () => {
    for (const model of ['gpt-4o', 'openai/gpt-4o-mini', 'o3-mini', 'gpt-5', 'azure:gpt-4o']) expect(encodingForModel(model), model).toBe('o200k_base');
    for (const model of ['gpt-4', 'gpt-4-1106-preview', 'gpt-3.5-turbo']) expect(encodingForModel(model), model).toBe('cl100k_base');
    for (const model of ['deepseek/deepseek-chat', 'gemini-1.5-pro', 'meta-llama/Llama-3-70b']) expect(encodingForModel(model), model).toBe('cl100k_base');
  });

  it('approximate: Claude 3 and later (the public tokenizer predates them) and non-OpenAI families', () => {
    for (const model of ['claude-3-5-sonnet-20240620', 'anthropic/claude-sonnet-4.6', 'anthropic.claude-3-5-sonnet-20240620-v1:0', 'claude-opus-4-1']) {
      expect(isApproximateTokenizer(model), model).toBe(true);
    }
    for (const model of ['claude-2.1', 'claude-2', 'anthropic.claude-v2:1', 'claude-instant-1.2', 'bedrock:anthropic.claude-instant-v1']) {
      expect(isApproximateTokenizer(model), model).toBe(false);
    }
    expect(isApproximateTokenizer('deepseek/deepseek-chat')).toBe(true);
    expect(isApproximateTokenizer('gpt-4o')).toBe(false);
    expect(isApproximateTokenizer('gpt-4-1106-preview')).toBe(false);
  });

  it("a Claude count is the package's own count, and differs from cl100k_base and o200k_base", () => {
    const own = anthropicTokenizer.countTokens(CODE);
    expect(own).toBe(20);
    expect(countTokens(CODE, 'claude-3-5-sonnet-20240620')).toBe(own);
    expect(countTokens(CODE, 'anthropic/claude-sonnet-4.6')).toBe(own);
    expect(countTokens(CODE, 'gpt-4')).toBe(17);
    expect(countTokens(CODE, 'gpt-4o')).toBe(18);
    // NFKC normalisation as the package does it: full-width letters are one ordinary word.
    expect(countTokens('Ｈｅｌｌｏ', 'claude-2.1')).toBe(anthropicTokenizer.countTokens('Ｈｅｌｌｏ'));
    expect(countTokens('Ｈｅｌｌｏ', 'claude-2.1')).toBe(1);
    expect(countTokens('Ｈｅｌｌｏ', 'gpt-4')).toBe(10);
    // Special-token markers never throw, for any family.
    for (const text of ['<EOT>', '<|endoftext|>']) {
      expect(countTokens(text, 'claude-3-5-sonnet-20240620')).toBe(anthropicTokenizer.countTokens(text));
      expect(countTokens(text, 'gpt-4')).toBeGreaterThan(1);
    }
    expect(countTokens('', 'claude-3-5-sonnet-20240620')).toBe(0);
  });

  it('keeps one tokenizer: 2000 Claude counts build it once', async () => {
    // The package's countTokens rebuilds its tokenizer per call (~90 ms); 2000 of those would take minutes.
    const tokenizerModule = createRequire(import.meta.url)('@anthropic-ai/tokenizer') as { getTokenizer: () => unknown };
    const built = vi.spyOn(tokenizerModule, 'getTokenizer');
    vi.resetModules(); // a fresh counting module, its tokenizer not built yet
    const fresh = await import('../../src/import/tokenCount.js');
    let total = 0;
    for (let i = 0; i < 2000; i++) total += fresh.countTokensWith(`observation ${i}: ${CODE}`, 'claude');
    expect(total).toBeGreaterThan(2000 * 20);
    expect(built).toHaveBeenCalledTimes(1);
    built.mockRestore();
  });
});

describe('tokenCount: chat framing', () => {
  const t = (text: string): number => countTokensWith(text, 'claude');

  it('Claude: system prompt apart, one frame per turn, consecutive same-side messages framed once, reply primed', () => {
    expect(t(CLAUDE_HUMAN_TURN)).toBe(4);
    expect(t(CLAUDE_ASSISTANT_TURN)).toBe(4);
    expect(replyPrimingTokens('claude')).toBe(4);
    const messages = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'demonstration' },
      { role: 'user', content: CODE },
      { role: 'assistant', content: 'ls -a' },
      { role: 'tool', content: 'README.md' },
    ];
    const expected =
      t('You are terse.') +
      (t(CLAUDE_HUMAN_TURN) + t('demonstration') + t(CODE)) +
      (t(CLAUDE_ASSISTANT_TURN) + t('ls -a')) +
      (t(CLAUDE_HUMAN_TURN) + t('README.md')) +
      t(CLAUDE_ASSISTANT_TURN);
    expect(countChatTokens(messages, 'claude-3-5-sonnet-20240620')).toBe(expected);
    expect(chatMessageTokens({ role: 'system', content: CODE }, 'claude')).toBe(t(CODE));
    expect(chatMessageTokens({ role: 'assistant', content: CODE }, 'claude')).toBe(4 + t(CODE));
    expect(countChatTokens([], 'claude-3-5-sonnet-20240620')).toBe(0);
  });

  it('OpenAI framing is unchanged: 3 per message + role (+ name), 3 priming', () => {
    expect(replyPrimingTokens('cl100k_base')).toBe(REPLY_PRIMING_TOKENS);
    const messages = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: CODE, name: 'bob' },
    ];
    const c = (text: string): number => countTokens(text, 'gpt-4');
    expect(countChatTokens(messages, 'gpt-4')).toBe(3 + (3 + c('system') + c('You are terse.')) + (3 + c('user') + c(CODE) + 1 + c('bob')));
  });
});
