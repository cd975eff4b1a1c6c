/**
 * The paths `check` shows for scenario files it knows only from the baseline — a gone one, a renamed one's
 * old path — are spelled as the user named the files checked beside them, in the text report, JSON and
 * JUnit alike. The baseline keys them relative to its own directory; shown relative to the current directory,
 * a check of /tmp/…/s run from the repository printed `../../tmp/…/s/gone.yaml` GONE beside
 * `/tmp/…/s/new.yaml` new (src/check/shownPath.ts).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from '../cli/run.js';

interface Row {
  scenario: string;
  figure: string;
  status: string;
}

/** `root/s` holding gone.yaml, old.yaml (name: kept) and stay.yaml, with the baseline `baselineFile` written of them. */
async function baselined(root: string, baselineFile: string): Promise<string> {
  const dir = join(root, 's');
  mkdirSync(dir, { recursive: true });
  oneEntryScenario(dir, 'gone.yaml', { name: 'gone one', runs: '5' });
  oneEntryScenario(dir, 'old.yaml', { name: 'kept name', runs: '6' });
  oneEntryScenario(dir, 'stay.yaml', { name: 'stay', runs: '7' });
  const wrote = await cli('check', dir, '--update-baseline', baselineFile);
  expect(wrote.code, wrote.stderr).toBe(0);
  return dir;
}

/** Since the baseline: gone.yaml removed, old.yaml renamed (its name: kept), new.yaml added. */
function edit(dir: string): void {
  rmSync(join(dir, 'gone.yaml'));
  renameSync(join(dir, 'old.yaml'), join(dir, 'renamed.yaml'));
  oneEntryScenario(dir, 'new.yaml', { name: 'new one', runs: '8' });
}

/** The gone, renamed-from and new paths each output shows, for a check of `args` with the baseline `baselineFile`. */
async function shown(args: readonly string[], baselineFile: string): Promise<{ text: string; json: { gone: string; from: string; added: string }; junitNames: string[] }> {
  const junit = join(tempDir(), 'j.xml');
  const text = await cli('check', ...args, '--baseline', baselineFile, '--junit', junit);
  expect(text.code, text.stderr).toBe(1); // a gone scenario fails
  const json = await cli('check', ...args, '--baseline', baselineFile, '--format', 'json');
  const drift = (JSON.parse(json.stdout) as { drift: { rows: Row[]; renamed: { scenario: string; from: string }[] } }).drift;
  const row = (status: string) => drift.rows.find((r) => r.status === status)!.scenario;
  const junitNames = [...readFileSync(junit, 'utf8').matchAll(/<testcase classname="baseline [^"]*" name="([^"]*)"/g)].map((m) => m[1]!);
  return { text: text.stdout.replace(/\s+/g, ' '), json: { gone: row('gone'), from: drift.renamed[0]!.from, added: row('new') }, junitNames };
}

describe('check: baseline paths shown as the user named the scenarios', () => {
  it('a directory given by its absolute path, checked from elsewhere: gone and renamed-from spelled as the new file is, in text, JSON and JUnit', async () => {
    const root = tempDir();
    const dir = await baselined(root, join(root, 's', 'b.json'));
    edit(dir);
    const out = await shown([dir], join(dir, 'b.json'));
    expect(out.json).toEqual({ gone: join(dir, 'gone.yaml'), from: join(dir, 'old.yaml'), added: join(dir, 'new.yaml') });
    expect(out.junitNames).toEqual([join(dir, 'gone.yaml')]);
    expect(out.text).toMatch(new RegExp(`${join(dir, 'gone.yaml')} scenario GONE`));
    expect(out.text).toContain(`renamed: ${join(dir, 'renamed.yaml')}: renamed from ${join(dir, 'old.yaml')} (the same name: "kept name")`);
    expect(out.text).not.toContain('../');
  });

  it('through a linked directory, and with the baseline kept in another directory: spelled from the path given, links kept', async () => {
    const root = tempDir();
    const link = join(tempDir(), 'link');
    symlinkSync(root, link);
    // Keyed ../s/x.yaml: the baseline in root/ci, the scenarios in root/s.
    mkdirSync(join(root, 'ci'));
    const baselineFile = join(link, 'ci', 'b.json');
    await baselined(root, baselineFile);
    edit(join(root, 's'));
    const given = join(link, 's');
    const out = await shown([given], baselineFile);
    expect(out.json).toEqual({ gone: join(given, 'gone.yaml'), from: join(given, 'old.yaml'), added: join(given, 'new.yaml') });
    expect(out.junitNames).toEqual([join(given, 'gone.yaml')]);
  });

  it('a glob: spelled beside the files it found', async () => {
    const root = tempDir();
    const dir = await baselined(root, join(root, 's', 'b.json'));
    edit(dir);
    const out = await shown([join(dir, '*.yaml')], join(dir, 'b.json'));
    expect(out.json.gone).toBe(join(dir, 'gone.yaml'));
    expect(out.json.from).toBe(join(dir, 'old.yaml'));
  });
});
