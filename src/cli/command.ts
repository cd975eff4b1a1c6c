/**
 * How a command joins the CLI. Each command is a module under src/cli/commands/ that registers its name,
 * options and help on the program and, in its action, imports its implementation (src/cli/actions/) only
 * when it runs: `loopcost --help` loads commander and these small modules, nothing else.
 *
 * Adding a command: write src/cli/commands/<name>.ts exporting a CommandModule, then add it to the list in
 * main.ts (one import, one entry).
 */
import type { Command } from 'commander';
import type { CliIO } from './io.js';

export interface CommandContext {
  io: CliIO;
  /** The exit code main() returns (0 unless the action sets another). */
  setExitCode(code: number): void;
}

export interface CommandModule {
  /** The command's name (`replay`): main registers only the command argv names when it names one. */
  readonly name: string;
  /** Adds the command, its options and its action to `program`. Must not import heavy modules eagerly. */
  register(program: Command, context: CommandContext): void;
}
