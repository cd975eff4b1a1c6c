/**
 * A symbolic link to nothing (dangling) on a path is said as such — `is a symbolic link to a missing target
 * (…)`, with what to do — wherever loopcost meets it: an output's directory (`--out`, `--report-dir`, a
 * directory on the way), `--cache-dir`, and an input (given, or inside an input directory). The file system
 * answers a directory made at one with EEXIST, which the one table of words said as "a part of the path is
 * a file"; an input through one read as "no such file or directory". Nothing is written, exit 2.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileErrorWords } from '../../src/io/fileErrorWords.js';
import { danglingLinkOn } from '../../src/io/danglingLink.js';
import { cli, ONE_CALL_RUN, tempDir } from '../cli/run.js';

const SAID = /is a symbolic link to a missing target \(.*nowhere\) \('ls -l' shows what the link names: create that, point the link at something that exists, or /;

function setup(): { dir: string; run: string; link: string } {
  const dir = tempDir();
  const run = join(dir, 'run.jsonl');
  writeFileSync(run, ONE_CALL_RUN);
  const link = join(dir, 'gone');
  symlinkSync(join(dir, 'nowhere'), link);
  return { dir, run, link };
}

describe('a symbolic link to nothing', () => {
  it('is found on the path itself or on the nearest directory there, and nowhere else', () => {
    const { dir, link } = setup();
    expect(danglingLinkOn(link)).toEqual({ link, target: join(dir, 'nowhere') });
    expect(danglingLinkOn(`${link}/`)?.link).toBe(link);
    expect(danglingLinkOn(join(link, 'a', 'b.json'))?.link).toBe(link);
    expect(danglingLinkOn(join(dir, 'missing', 'b.json'))).toBeUndefined();
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'alive'));
    expect(danglingLinkOn(join(dir, 'alive', 'x'))).toBeUndefined();
    // A directory made where one is: never "a part of the path is a file".
    expect(fileErrorWords(Object.assign(new Error('x'), { code: 'EEXIST' }))).not.toMatch(/a part of the path is a file/);
  });

  it('--report-dir, --out under it, and --cache-dir: said as a link to nothing, exit 2, nothing written', async () => {
    const { dir, run, link } = setup();
    const before = readdirSync(dir).sort();
    const reportDir = await cli('replay', run, '--report-dir', link);
    expect(reportDir.code).toBe(2);
    expect(reportDir.stderr).toMatch(new RegExp(`gone field '--report-dir': ${SAID.source}choose another --report-dir path\\)`));
    const out = await cli('replay', run, '--out', join(link, 'x.json'));
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(new RegExp(`x\\.json field '--out': .*gone ${SAID.source}choose another --out path\\)`));
    const slash = await cli('replay', run, '--out', `${link}/`);
    expect(slash.stderr).toMatch(SAID);
    const cache = await cli('replay', run, '--cache-dir', link);
    expect(cache.code).toBe(2);
    expect(cache.stderr).toMatch(/field '--cache-dir': '.*gone' cannot be created: .*gone is a symbolic link to a missing target \(.*nowhere\)/);
    for (const r of [reportDir, out, slash, cache]) {
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toMatch(/a part of the path is a file/);
    }
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
  });

  it('an input that is one, or inside an input directory: said as such, not "no such file"', async () => {
    const { dir, link } = setup();
    symlinkSync(join(dir, 'nowhere'), join(dir, 'f.jsonl'));
    const given = await cli('replay', join(dir, 'f.jsonl'));
    expect(given.code).toBe(2);
    expect(given.stderr).toMatch(new RegExp(`f\\.jsonl: ${SAID.source}remove the link\\)`));
    const inside = await cli('replay', dir);
    expect(inside.code).toBe(2);
    expect(inside.stderr).toMatch(new RegExp(`f\\.jsonl: ${SAID.source}remove the link\\)`));
    const through = await cli('replay', join(link, 'x.jsonl'));
    expect(through.stderr).toMatch(/x\.jsonl: .*gone is a symbolic link to a missing target/);
    // A path that is simply not there is said as before.
    expect((await cli('replay', join(dir, 'absent.jsonl'))).stderr).toMatch(/absent\.jsonl: no such file or directory/);
  });
});
