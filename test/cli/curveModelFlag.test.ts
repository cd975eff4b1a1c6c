// curve's model is the command line's: an unknown one is named as --model (as replay names it), not as a
// field of the trace curve builds internally.
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

describe('curve --model unknown', () => {
  it('exits 2 naming <command line> --model, with did-you-mean', async () => {
    const r = await cli('curve', '--model', 'gpt-4oo', '--steps', '3', '--system-tokens', '1', '--output-tokens', '1', '--tool-tokens', '1');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^loopcost: <command line> field '--model': unknown model 'gpt-4oo' \(did you mean gpt-4o/);
  });
});
