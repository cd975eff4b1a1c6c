/**
 * The one table from a system error code (`EACCES`, `ELOOP`, `EADDRINUSE`) to words a user reads: every
 * message about a path that cannot be read (src/io/inputErrors.ts), written (src/io/outputTarget.ts) or
 * created (--cache-dir, src/cache/cacheDir.ts), and about an address `serve` cannot listen on
 * (src/cli/actions/serve.ts), says why in these words, never the raw code.
 */

/** Why a path (or an address) cannot be used, by error code, as words that follow "cannot be read: ", "cannot listen on H:P: ". */
const ERROR_WORDS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOENT: 'it or a directory on its path does not exist',
  ENOTDIR: 'a part of the path is not a directory',
  // Only a directory made where something not one is already there answers EEXIST: a link to nothing (said
  // by its own words where it is met: danglingLink.ts), or a file that got there meanwhile.
  EEXIST: 'something that is not a directory is already there (a file, or a symbolic link to a missing target)',
  EISDIR: 'it is a directory',
  ELOOP: 'a symbolic link loop',
  ENAMETOOLONG: 'the path, or a name in it, is too long',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EMFILE: 'too many files open',
  ENFILE: 'too many files open',
  EIO: 'an input/output error of the device (a failing disk or network file system)',
  EBUSY: 'the file is busy',
  ETXTBSY: 'the file is busy',
  ENXIO: 'nothing receives what is written there (a socket, or a device with nothing behind it)',
  EPIPE: 'its reader closed it before everything was written',
  EADDRINUSE: 'the address is in use (another process listens on that port)',
  EADDRNOTAVAIL: "the address is not one of this machine's",
  ENOTFOUND: 'no host of that name was found',
  EAI_AGAIN: 'the host name could not be looked up (the name server did not answer)',
};

/** The error's code, when it has one (a Node file-system error). */
export function errorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Why a file-system call failed, in words (ERROR_WORDS); an unknown code is named after words saying so. */
export function fileErrorWords(error: unknown): string {
  return knownErrorWords(error) ?? `an unexpected file-system error (${errorCode(error) ?? (error as Error).message})`;
}

/** Why a call failed, in words, when the table has its code. */
export function knownErrorWords(error: unknown): string | undefined {
  const code = errorCode(error);
  return code === undefined ? undefined : ERROR_WORDS[code];
}

/** What to do about a symbolic link loop, the one error whose fix is not in the path's permissions. */
export const LINK_LOOP_HINT = "a symbolic link on the path leads back to itself (or more than 40 follow each other): 'ls -l' shows where each leads; fix the link, or give the real path";

/**
 * Why a path cannot be written or created (`what`: the verb): `cannot be written: permission denied`.
 * ENOENT after loopcost made every missing directory means the place takes no new entries (as /proc), said so.
 */
export function writeProblem(error: unknown, what: 'written' | 'created'): string {
  const code = errorCode(error);
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'ENOENT') return 'cannot be created there: the directory it goes in was removed, or takes no new entries (as /proc)';
  return `cannot be ${what}: ${fileErrorWords(error)}`;
}
