/**
 * mini-swe-agent prices every call with its configured model, whatever model the provider says served it
 * (`extra.response.model`): the run is priced as configured, and a note names the served model(s).
 * Fixture: test/fixtures/mini-swe-agent-served-model/astropy__astropy-12907.served-model.trimmed.traj.json (mini-swe-agent
 * 2.3.0's example trajectory, trimmed: `deepseek/deepseek-chat` configured, every response `deepseek-v4-flash`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importMiniSweAgent } from '../../src/import/miniSweAgent.js';
import { servesPricedModel } from '../../src/import/miniSweAgent/servedModel.js';

const SERVED = 'test/fixtures/mini-swe-agent-served-model/astropy__astropy-12907.served-model.trimmed.traj.json';
const SAME_MODEL = 'test/fixtures/mini-swe-agent/deepseek_chat_dev__sqlfluff__sqlfluff-2419.trimmed.traj.json';

type Json = any;

function notesOf(json: Json, path = 'run.traj.json'): string[] {
  const [trace] = importMiniSweAgent(JSON.stringify(json), path);
  return trace!.header.importedFrom?.notes ?? [];
}

/** The fixture's JSON with every response naming `models[i]` (the i-th assistant message), and its configured model set (or removed). */
function withModels(configured: string | undefined, models: string[]): Json {
  const json = JSON.parse(readFileSync(SERVED, 'utf8'));
  if (configured === undefined) delete json.info.config.model.model_name;
  else json.info.config.model.model_name = configured;
  json.messages.filter((m: Json) => m.role === 'assistant').forEach((m: Json, i: number) => (m.extra.response.model = models[i]));
  return json;
}

describe('mini-swe-agent: the model that served the calls', () => {
  it('every response served by deepseek-v4-flash, deepseek/deepseek-chat configured: priced as configured, and a note says so', () => {
    const [trace] = importMiniSweAgent(readFileSync(SERVED, 'utf8'), SERVED);
    expect(trace!.header.model).toBe('deepseek/deepseek-chat');
    expect(trace!.calls).toHaveLength(4);
    expect(trace!.header.importedFrom?.notes).toContain(
      '4 of 4 calls name deepseek-v4-flash as the model that served them (extra.response.model), not the configured deepseek/deepseek-chat: the run is priced as deepseek/deepseek-chat, the model mini-swe-agent computed the recorded cost (extra.cost) with',
    );
  });

  it('responses that name the configured model without its route (deepseek-chat for deepseek/deepseek-chat): no note', () => {
    const [trace] = importMiniSweAgent(readFileSync(SAME_MODEL, 'utf8'), SAME_MODEL);
    expect((trace!.header.importedFrom?.notes ?? []).join('\n')).not.toContain('served');
  });

  it('a dated snapshot of the configured model is that model; another model is named, with its calls', () => {
    expect(notesOf(withModels('openai/gpt-5', ['gpt-5-2025-08-07', 'gpt-5-2025-08-07', 'GPT-5', 'gpt-5-2025-08-07'])).join('\n')).not.toContain('served');
    expect(notesOf(withModels('openai/gpt-5', ['gpt-5-2025-08-07', 'gpt-5-mini-2025-08-07', 'gpt-5', 'gpt-5-nano']))).toContain(
      '2 of 4 calls name gpt-5-mini-2025-08-07 (1 call), gpt-5-nano (1 call) as the model that served them (extra.response.model), not the configured openai/gpt-5: the run is priced as openai/gpt-5, the model mini-swe-agent computed the recorded cost (extra.cost) with',
    );
  });

  it('no configured model: priced as the first response names, and a later response naming another is noted', () => {
    const notes = notesOf(withModels(undefined, ['deepseek-v4-flash', 'deepseek-v4-flash', 'deepseek-chat', 'deepseek-v4-flash']));
    expect(notes).toContain('1 of 4 calls names deepseek-chat as the model that served it (extra.response.model), not deepseek-v4-flash, the first response\'s: the run is priced as deepseek-v4-flash');
  });

  it('servesPricedModel: route, case and snapshot suffixes only', () => {
    expect(servesPricedModel('claude-sonnet-4-20250514', 'anthropic/claude-sonnet-4')).toBe(true);
    expect(servesPricedModel('claude-sonnet-4@20250514', 'vertex_ai/claude-sonnet-4')).toBe(true);
    expect(servesPricedModel('gpt-4-0613', 'gpt-4')).toBe(true);
    expect(servesPricedModel('gpt-4o', 'gpt-4')).toBe(false);
    expect(servesPricedModel('gpt-4-turbo', 'gpt-4')).toBe(false);
    expect(servesPricedModel('deepseek-v4-flash', 'deepseek/deepseek-chat')).toBe(false);
  });
});
