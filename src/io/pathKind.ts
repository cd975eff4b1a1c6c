/** Whether a path is a directory or a regular file now (anything that cannot be stat'ed is neither): for messages and choices that only ask. */
import { statSync } from 'node:fs';

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
