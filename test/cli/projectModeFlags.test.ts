/**
 * `project` runs scenario files under their own brakes (the flags on top), so a mode flag given for a brake
 * a file sets governs it (as replay takes it); it is refused only when neither a flag nor a file sets the brake.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const FILE = 'scenarios/production-mix.yaml';
const SHORT = ['--days', '2', '--trials', '10', '--format', 'json'];

describe('project takes a mode flag for a brake its scenario file sets', () => {
  it('--repeat-mode consecutive governs the max-repeat the file sets (as replay takes it)', async () => {
    const projected = await cli('project', FILE, '--repeat-mode', 'consecutive', ...SHORT);
    expect(projected.code, projected.stderr).toBe(0);
    expect(JSON.parse(projected.stdout).settings.brakes).toContain('max-repeat=3,repeat-mode=consecutive');
    const replayed = await cli('replay', FILE, '--repeat-mode', 'consecutive', '--format', 'json');
    expect(replayed.code, replayed.stderr).toBe(0);
  });

  it('--budget-mode predict governs the max-cost the file sets', async () => {
    const projected = await cli('project', FILE, '--budget-mode', 'predict', ...SHORT);
    expect(projected.code, projected.stderr).toBe(0);
    expect(JSON.parse(projected.stdout).settings.brakes).toContain('budget-mode=predict');
  });

  it('still refuses a mode whose brake neither a flag nor the file sets', async () => {
    const refused = await cli('project', FILE, '--same-error-mode', 'total', ...SHORT);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("field '--same-error-mode': has no effect without --max-same-error");
  });
});
