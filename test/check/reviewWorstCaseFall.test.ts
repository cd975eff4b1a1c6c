/**
 * The worst case per run the brakes allow, moved by a model change with the brakes as they were, is put down
 * to the model both ways (CI review): a rise said "it rose with the model, not the brakes" while a fall said
 * "the brakes now allow less", crediting brakes that had not changed.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { GATE_SUPPORT } from './gateFixture.js';

const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('a worst case that fell with the model', () => {
  it('says it fell with the model, not that the brakes allow less', async () => {
    const dir = tempDir();
    const file = join(dir, 'support.yaml');
    copyFileSync(GATE_SUPPORT, file);
    writeFileSync(file, readFileSync(file, 'utf8').replace('model: gpt-4o-mini', 'model: gpt-4o').replace(/\nexpect:[\s\S]*?\npopulation:/, '\npopulation:'));
    const baseline = join(dir, 'baseline.json');
    expect((await cli('check', file, '--update-baseline', baseline)).code).toBe(0);
    writeFileSync(file, readFileSync(file, 'utf8').replace('model: gpt-4o', 'model: gpt-4o-mini'));
    const text = flat((await cli('check', file, '--baseline', baseline)).stdout);
    expect(text).toMatch(/worst case: \S+: worst case per run \$[\d.]+ → \$[\d.]+ \(-[\d.]+%\): it fell with the model, not the brakes \(gpt-4o → gpt-4o-mini/);
    expect(text).toContain('(the model allows less: no failure)');
    expect(text).not.toContain('the brakes now allow less');
    expect(text).not.toContain('the brakes allow less');
  });
});
