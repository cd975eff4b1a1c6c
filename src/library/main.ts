/**
 * `main` as the library exports it: the command line run in this process (src/cli/main.ts), loaded on the
 * first call. The command line's module brings commander and every command's registration (and, through
 * them, asciichart, js-yaml and yaml): imported by the package's entry, they cost every `import('loopcost')`
 * ~0.5 s and tens of MB that only a caller of `main` needs. The bin loads its own bundle (bin/loadCli.js) and
 * never this. Its arguments are checked here first, as the command line checks them (a rejected promise).
 */
import type { CliIO } from '../cli/io.js';
import { requireMainArguments } from '../options/textArguments.js';

/** `loopcost <argv…>` in this process, writing through `io`: the exit code (src/cli/main.ts). */
export async function main(argv: string[], io: CliIO): Promise<number> {
  requireMainArguments(argv, io);
  const cli = await import('../cli/main.js');
  return cli.main(argv, io);
}
