/** A `loopcost serve` child process for tests: started on a free port, its URL once it listens, its stderr, its exit. */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ServedProcess {
  child: ChildProcess;
  url: string;
  /** stderr so far. */
  stderr(): string;
  exited: Promise<number | null>;
}

export async function spawnServe(args: readonly string[]): Promise<ServedProcess> {
  const child = spawn(process.execPath, ['bin/loopcost.js', 'serve', ...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (found) resolve(found[1]!);
    });
    child.on('exit', () => reject(new Error(`serve exited early: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr, exited };
}
