/** A command run in-process twice, its stderr piped and then a terminal (`stderrIsTerminal`): what progress tests compare. */
import { main } from '../../src/cli/main.js';

export interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
}

async function runOnce(argv: string[], terminal: boolean): Promise<CapturedRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd: process.cwd(), ...(terminal ? { stderrIsTerminal: true } : {}) });
  return { code, stdout, stderr };
}

/** `argv` run with stderr piped, then on a terminal. */
export async function pipedAndTerminal(argv: string[]): Promise<{ piped: CapturedRun; terminal: CapturedRun }> {
  const piped = await runOnce(argv, false);
  const terminal = await runOnce(argv, true);
  return { piped, terminal };
}
