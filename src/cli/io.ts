export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /**
   * This process's working directory (process.cwd()), against which main reads and writes relative paths;
   * optional, and when given it must be that directory (a UserError otherwise: main cannot run elsewhere).
   */
  cwd?: string;
  /** Width of the terminal when stdout is one (text reports fit it); absent: not a terminal (120 columns). */
  columns?: number;
  /** stderr is a terminal: long jobs may draw progress there (never in piped or redirected output). */
  stderrIsTerminal?: boolean;
}
