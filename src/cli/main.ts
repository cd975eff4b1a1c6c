/**
 * The command line: a list of commands (src/cli/commands/), each registering its options and importing
 * its implementation only when it runs. Returns an exit code; only bin/ exits.
 *   0  the job ran (a brake firing is a result)
 *   1  `check`: an expectation failed or a figure drifted (its report says which)
 *   2  bad input or usage: one message naming the place, no stack trace, no output file
 *  70  an internal error (a bug, or a broken build: the stack is printed); sysexits' EX_SOFTWARE, so that
 *      a CI job tells a crash from a failed gate
 */
import { refuseRepeatedFlags } from './options.js';
import { forgetOverrides, sayOverrideMisses } from './overrideMisses.js';
import { createRequire } from 'node:module';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type * as Commander from 'commander';
import { sanitizeLinesForTerminal, UserError } from '../errors.js';
import type { CommandModule } from './command.js';
import type { CliIO } from './io.js';
import { LOOPCOST_VERSION } from '../version.js';

/** An internal error's exit code (sysexits' EX_SOFTWARE): not 1, which is `check`'s failed gate. */
export const INTERNAL_ERROR_EXIT = 70;

// commander is CommonJS: required directly it loads in half the time an ESM import takes (no export
// lexing), which is a third of `loopcost --help`'s own start-up.
const { Command, CommanderError } = createRequire(import.meta.url)('commander') as typeof Commander;
import replay from './commands/replay.js';
import whatif from './commands/whatif.js';
import compare from './commands/compare.js';
import curve from './commands/curve.js';
import prices from './commands/prices.js';
import importCommand from './commands/import.js';
import generate from './commands/generate.js';
import fit from './commands/fit.js';
import sweep from './commands/sweep.js';
import merge from './commands/merge.js';
import calibrate from './commands/calibrate.js';
import project from './commands/project.js';
import check from './commands/check.js';
import serve from './commands/serve.js';
import contexts from './commands/contexts.js';
import { requireMainArguments } from '../options/textArguments.js';

/** Every command, in the order `loopcost --help` lists them. Add a command here (one import, one entry). */
export const COMMANDS: readonly CommandModule[] = [replay, whatif, compare, curve, prices, importCommand, generate, fit, sweep, merge, calibrate, project, check, serve, contexts];

/** `loopcost prices derive`: the program and the (sub)commands argv names, for usage hints. */
function commandPath(program: Commander.Command, argv: readonly string[]): string {
  const names = ['loopcost'];
  let command = program;
  for (const token of argv) {
    const sub = subcommandOf(command, token);
    if (!sub) break;
    names.push(sub.name());
    command = sub;
  }
  return names.join(' ');
}

/** The subcommand of `command` that `token` names (by name or alias), if any. */
function subcommandOf(command: Commander.Command, token: string): Commander.Command | undefined {
  return command.commands.find((c) => c.name() === token || c.aliases().includes(token));
}

/**
 * The words commander parses: `help X` for no command X is `X`, refused as `loopcost X` is (`unknown command
 * 'X'`, with commander's suggestion), not answered with the general help and no word of X (`help help` is
 * `help`: the general help).
 */
function wordsToParse(program: Commander.Command, argv: readonly string[]): readonly string[] {
  const [first, named] = argv;
  const unknown = first === 'help' && named !== undefined && !named.startsWith('-') && subcommandOf(program, named) === undefined;
  return unknown ? argv.slice(1) : argv;
}

/** An option's help: its description, then choices and default, unquoted (`(choices: on, off; default: off)`). */
function describeOption(option: Commander.Option): string {
  const extra: string[] = [];
  if (option.argChoices) extra.push(`choices: ${option.argChoices.join(', ')}`);
  const fallback = option.defaultValueDescription ?? (option.defaultValue === undefined ? undefined : String(option.defaultValue));
  if (fallback !== undefined) extra.push(`default: ${fallback}`);
  return extra.length === 0 ? option.description : `${option.description} (${extra.join('; ')})`;
}

/**
 * What a run of `argv` registers: the command its first word names (registering fifteen commands'
 * options is most of a start's own work), none for `--version` (answered before any command), every one
 * otherwise (`help <command>`, the suggestion for a misspelt command) — in outline for the top-level
 * `--help`, which shows each command's usage and description but none of its options. A test holds every
 * output equal to the program with every command, in full (runCli with its defaults).
 */
export interface Registration {
  readonly commands: readonly CommandModule[];
  /** Each command with its first option only (OutlineCommand). */
  readonly outline: boolean;
}

export function registrationFor(argv: readonly string[]): Registration {
  const first = argv[0];
  if (first === '--version' || first === '-V') return { commands: [], outline: false };
  const named = COMMANDS.find((command) => command.name === first);
  if (named !== undefined) return { commands: [named], outline: false };
  return { commands: COMMANDS, outline: argv.length === 1 && (first === '--help' || first === '-h') };
}

/**
 * A command that keeps its first option only: the top-level help shows `[options]` for a command with
 * any, nothing of them. Each of the 321 options was checked against every earlier flag of its command on
 * registration: half of `--help`'s own time, for nothing the top-level help prints.
 */
class OutlineCommand extends Command {
  override addOption(option: Commander.Option): this {
    return this.options.length === 0 ? super.addOption(option) : this;
  }
}

/** The program of a top-level `--help`: its commands in outline. */
class OutlineProgram extends Command {
  override createCommand(name?: string): Commander.Command {
    return new OutlineCommand(name);
  }
}

export async function main(argv: string[], io: CliIO): Promise<number> {
  requireMainArguments(argv, io);
  requireProcessCwd(io.cwd);
  return runCli(argv, io, registrationFor(argv));
}

/**
 * `io.cwd`, when given, is this process's working directory (or a path to it): every command reads and writes
 * relative paths through Node's fs, against the process's own directory, and names them so in its reports
 * (relative to it: a baseline's keys, the inputs' names). Another directory is refused rather than ignored: main
 * cannot run there without changing the whole process's directory (process.chdir), which a library must not.
 */
function requireProcessCwd(cwd: string | undefined): void {
  const here = process.cwd();
  if (cwd === undefined || sameDirectory(cwd, here)) return;
  const hint = 'leave io.cwd out or give process.cwd(); give main absolute paths, or call process.chdir(dir) before it';
  throw new UserError({ file: '<main arguments>', field: 'io.cwd', code: 'invalid_value', message: `${JSON.stringify(cwd)} is not this process's working directory (${here}), against which main reads and writes relative paths`, hint });
}

function sameDirectory(a: string, b: string): boolean {
  try {
    return realpathSync(resolve(a)) === realpathSync(b);
  } catch {
    return false;
  }
}

/** main with `registration` (main registers what argv needs: registrationFor). */
export async function runCli(argv: string[], io: CliIO, { commands, outline }: Registration = { commands: COMMANDS, outline: false }): Promise<number> {
  let exitCode = 0;
  const program = outline ? new OutlineProgram() : new Command();
  program
    .name('loopcost')
    .description('What will your LLM agent loop cost, and do its brakes hold?')
    .version(LOOPCOST_VERSION)
    // The program's options (--version) come before a command; each command's after it: `prices` and
    // `prices derive` both take --format, which a command's subcommand must receive in order.
    .enablePositionalOptions()
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureHelp({ optionDescription: describeOption })
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      outputError: () => undefined,
    });
  const context = { io, setExitCode: (code: number) => (exitCode = code) };
  for (const command of commands) command.register(program, context);
  refuseRepeatedFlags(program);

  forgetOverrides();
  try {
    await program.parseAsync(wordsToParse(program, argv), { from: 'user' });
    sayOverrideMisses(io, argv[0]);
    return exitCode;
  } catch (error) {
    forgetOverrides();
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return 0;
      // No command given (bare `loopcost`): commander has printed the help, to stderr; a usage error, as
      // bare `git` and `npm` are (exit 1 there: our code for usage errors is 2), never a second message.
      if (error.code === 'commander.help') return 2;
      io.stderr(sanitizeLinesForTerminal(`loopcost: ${error.message.replace(/^error: /, '')}\n(run '${commandPath(program, argv)} --help' for usage)\n`));
      return 2;
    }
    if (error instanceof UserError) {
      const usage = error.issues.some((issue) => issue.file === '<command line>') && !/--help/.test(error.message) ? `(run '${commandPath(program, argv)} --help' for usage)\n` : '';
      io.stderr(sanitizeLinesForTerminal(`loopcost: ${error.message}\n${usage}`));
      return 2;
    }
    io.stderr(`loopcost: internal error — please report it\n${(error as Error).stack ?? String(error)}\n`);
    return INTERNAL_ERROR_EXIT;
  }
}
