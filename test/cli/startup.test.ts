/**
 * `loopcost --help` and `--version` load commander and the small command modules only: every heavy module
 * (price data, zod, yaml, tokenizers, importers, the replay engine) is imported inside a command's action.
 * The timing itself is in `npm run bench` (bench/startup.mjs); this test keeps the import graph light.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { COMMANDS, type Registration, registrationFor, runCli } from '../../src/cli/main.js';
import { cli } from './run.js';

// (main checks its own arguments with the small argument checks of src/options, which import only each other and errors.ts.)
const ARGUMENT_CHECKS = ['src/options/textArguments.ts', 'src/options/arguments.ts', 'src/options/issues.ts'];
// (whatif's command line names the brake flags it refuses from src/flags/brakeKeys.ts, a list with no imports.)
const START_UP_FILES = ['src/flags/brakeKeys.ts', 'src/cli/main.ts', 'src/cli/command.ts', 'src/cli/options.ts', 'src/version.ts', 'src/cli/overrideMisses.ts', 'src/errors.ts', ...ARGUMENT_CHECKS, ...readdirSync('src/cli/commands').map((name) => join('src/cli/commands', name))];

/** Static, non-type imports of a TypeScript file. */
function runtimeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/^import\s+(?!type\b)[^'"]*?from\s+'([^']+)';/gm)].map((m) => m[1]!);
}

describe('start-up', () => {
  it('the modules --help loads import nothing but each other and node built-ins', () => {
    const allowed = new Set(START_UP_FILES.map((file) => file.replace(/^src\/cli\//, '').replace(/\.ts$/, '')));
    for (const file of START_UP_FILES) {
      for (const spec of runtimeImports(file)) {
        if (spec.startsWith('node:')) continue;
        const name = join(file, '..', spec).replace(/^src\/cli\//, '').replace(/\.js$/, '');
        expect(allowed.has(name) || name === 'src/errors', `${file} imports ${spec} at start-up`).toBe(true);
      }
    }
  });

  it('every command registers its action lazily (a dynamic import inside the action)', () => {
    for (const name of readdirSync('src/cli/commands')) {
      const source = readFileSync(join('src/cli/commands', name), 'utf8');
      expect(source, name).toMatch(/await import\('\.\.\/actions\//);
    }
  });

  it('--help lists every command and --version prints the package version', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    for (const command of ['replay', 'whatif', 'compare', 'curve', 'prices', 'import', 'generate', 'fit']) expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    const version = await cli('--version');
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
  });

  it('each command module registers one command, under its name', () => {
    const io = { stdout: () => undefined, stderr: () => undefined, cwd: process.cwd() };
    for (const module of COMMANDS) {
      const program = new Command();
      module.register(program, { io, setExitCode: () => undefined });
      expect(program.commands.map((command) => command.name())).toEqual([module.name]);
    }
  });

  it('registering only what argv needs answers as the program with every command does', async () => {
    const run = async (argv: string[], registration?: Registration) => {
      let stdout = '';
      let stderr = '';
      const code = await runCli(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd: process.cwd() }, registration);
      return { code, stdout, stderr };
    };
    const argvs: string[][] = [[], ['--help'], ['-h'], ['help'], ['help', 'sweep'], ['--version'], ['-V'], ['--version', '--bogus'], ['replya', 'x'], ['--bogus']];
    for (const { name } of COMMANDS) argvs.push([name, '--help'], [name, '--no-such-flag'], [name]);
    argvs.push(['prices', 'derive', '--help'], ['prices', 'derive'], ['replay', 'scenarios/', '--max-steps', '-5']);
    for (const argv of argvs) {
      expect(await run(argv, registrationFor(argv)), argv.join(' ')).toEqual(await run(argv));
      if (COMMANDS.some((command) => command.name === argv[0])) expect(registrationFor(argv).commands.length, argv.join(' ')).toBe(1);
    }
    expect(registrationFor(['--version']).commands).toEqual([]);
    expect(['--help', '-h', 'help', '--bogus'].map((argv) => registrationFor([argv]).outline)).toEqual([true, true, false, false]);
  });
});
