/**
 * `loopcost help X` for no command X (review 1, finding 2): refused as `loopcost X` is, naming X with
 * commander's suggestion, exit 2, no general help; `help` of a command, and `help` alone, answer as before.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

describe('help of an unknown command', () => {
  it('help relpay says what relpay says: unknown command, did you mean replay, exit 2', async () => {
    const asked = await cli('help', 'relpay');
    const typed = await cli('relpay');
    expect(asked.code).toBe(2);
    expect(asked.stdout).toBe('');
    expect(asked.stderr).toBe("loopcost: unknown command 'relpay'\n(Did you mean replay?)\n(run 'loopcost --help' for usage)\n");
    expect(asked).toEqual(typed);
  });

  it('help foo: unknown command, no suggestion, no general help', async () => {
    const r = await cli('help', 'foo');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("loopcost: unknown command 'foo'\n(run 'loopcost --help' for usage)\n");
  });

  it('help of a command, help help and help alone still answer', async () => {
    const replay = await cli('help', 'replay');
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain('Usage: loopcost replay');
    expect(await cli('help', 'help')).toEqual(await cli('help'));
    const bare = await cli('help');
    expect(bare.code).toBe(0);
    expect(bare.stdout).toContain('Usage: loopcost [options] [command]');
  });
});
