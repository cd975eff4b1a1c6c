/**
 * An address the server cannot listen on, said in words (io/fileErrorWords.ts) with the option to change and
 * what to do: one message for `startServer` (naming its options, `port`, `host`) and for `loopcost serve`
 * (naming its flags, `--port`, `--host`: cli/actions/serve.ts, and `serve --check`, which looks without
 * listening: cli/actions/serveListen.ts). Never the raw `listen EADDRINUSE`, never a stack trace.
 */
import { UserError, type InputIssue } from '../errors.js';
import { errorCode, knownErrorWords } from '../io/fileErrorWords.js';

/** Where the address was given: the file of the issue, and the names of its two fields there. */
export interface ListenPlace {
  file: string;
  host: string;
  port: string;
}

/** startServer's options. */
export const START_SERVER_PLACE: ListenPlace = { file: '<startServer options>', host: 'host', port: 'port' };

/** The address listened on. */
export interface ListenAddress {
  host: string;
  port: number;
}

/**
 * The field to change, and what to do (the port's field named as `port` gives it), for each error of listening said
 * to the user (its words: io/fileErrorWords.ts, but EINVAL's, which on a file means something else).
 */
const LISTEN_ERRORS: Readonly<Record<string, { field: 'port' | 'host'; hint: (port: string) => string; words?: string }>> = {
  EADDRINUSE: { field: 'port', hint: (port) => `choose another ${port}, or 0 for any free one` },
  EACCES: { field: 'port', hint: (port) => `a port below 1024 needs the rights of root: choose another ${port}, or 0 for any free one` },
  EADDRNOTAVAIL: { field: 'host', hint: () => 'give an address of this machine: 127.0.0.1 (this machine only), or 0.0.0.0 (every interface)' },
  ENOTFOUND: { field: 'host', hint: () => 'check the name, or give an address: 127.0.0.1, or 0.0.0.0' },
  EAI_AGAIN: { field: 'host', hint: () => 'check the name, or give an address: 127.0.0.1, or 0.0.0.0' },
  EINVAL: {
    field: 'host',
    words: 'the system takes no connections on that address as written (a link-local IPv6 address, fe80::…, needs its interface after a %: fe80::1%eth0; a multicast address takes none)',
    hint: () => 'give an address of this machine: 127.0.0.1 (this machine only), or 0.0.0.0 (every interface)',
  },
};

/** The user's error of listening: the system's error it says, kept to say it again where the address was given otherwise (namedAt). */
export class ListenProblem extends UserError {
  constructor(
    readonly systemError: unknown,
    readonly address: ListenAddress,
    issue: InputIssue,
  ) {
    super(issue);
  }

  /** The same problem, its field named as `place` names it (serve: its flags). */
  namedAt(place: ListenPlace): ListenProblem {
    return listenProblem(this.systemError, this.address, place)!;
  }
}

/** `cannot listen on H:P: the address is in use …`, naming the field at `place`; undefined for an error that is not the user's. */
export function listenProblem(error: unknown, address: ListenAddress, place: ListenPlace = START_SERVER_PLACE): ListenProblem | undefined {
  const code = errorCode(error);
  const known = code === undefined ? undefined : LISTEN_ERRORS[code];
  const words = known?.words ?? knownErrorWords(error);
  if (known === undefined || words === undefined) return undefined;
  const message = `cannot listen on ${address.host}:${address.port}: ${words}`;
  return new ListenProblem(error, address, { file: place.file, field: place[known.field], code: 'bad_value', message, hint: known.hint(place.port) });
}
