import type { ApiMethodName, ApiInput, ApiOutput } from '../../../shared/api.js';
import type { AppEvent } from '../../../shared/events.js';
import type { McpFront } from '../mcp/front.js';

/** Flags a command accepts: `string` takes a value (`--tags "a, b"` or `--tags=a,b`), `boolean` does not. */
export type FlagSpec = Record<string, 'string' | 'boolean'>;

export interface ParsedArgs {
  positionals: string[];
  flags: Record<string, string | boolean>;
}

export interface CliIo {
  /** Calls the API table (validated input, the same handlers the app runs). */
  invoke<M extends ApiMethodName>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>>;
  /** Loads the notes now, as the first invoke would (a long-running command starts early). */
  open(): Promise<void>;
  /** The whole of stdin (for bodies piped in); null when stdin is a terminal. */
  readStdin(): Promise<string | null>;
  /** stdin line by line (search --stdin). */
  stdinLines(): AsyncIterable<string>;
  readFile(path: string): Promise<string>;
  /** Writes to stdout right away (streaming commands). */
  out(text: string): void;
  /** One line on stderr right away (progress; stdout stays the command's answer). */
  note(line: string): void;
  /** The events the core emits while a command runs (`encryption on` progress). */
  subscribe(listener: (event: AppEvent) => void): () => void;
  json: boolean;
  /** Where this run's notes live, known before any is loaded (the notes load on the first invoke). */
  place: { home: string; projectRoot: string; env: Record<string, string | undefined> };
  /** Set when the bin already started `memdesk mcp` (it may have answered initialize): mcp-first.ts. */
  mcpFront?: McpFront;
}

/** What a command prints: the JSON document with --json, else the text for people. */
export interface CliResult {
  json: unknown;
  text: string;
  /** Lines for stderr in text mode (warnings). */
  notices?: string[];
  /** Already printed by the command (streaming); print nothing more. */
  streamed?: boolean;
}

export interface CliCommand {
  /** One or two words: `list`, `project init`. */
  name: string;
  /** The usage line after `memdesk`. */
  usage: string;
  summary: string;
  flags: FlagSpec;
  /** Positional arguments: exact count or a range. */
  positionals: { min: number; max: number; names: string };
  /**
   * The command keeps running (a server): its notes directories are watched, so edits by the app
   * or other agents are seen without a restart.
   */
  longRunning?: boolean;
  run(io: CliIo, args: ParsedArgs): Promise<CliResult>;
}

/** The exit code of a usage error (an unknown command, a missing argument): run.ts. */
export const USAGE_EXIT_CODE = 2;

/** A usage mistake: exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
