/** What the live sub-agent tree tests build their trees of: an echo tool and each scripted turn's usage. */
import { defineTool } from '../../src/agent/tools.js';

export const echo = defineTool<{ i: number }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ i }) => String(i) });
export const usage = { inputTokens: 1000, outputTokens: 50 };
