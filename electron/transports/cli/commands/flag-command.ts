import { NO_ARGS } from '../args.js';
import type { CliCommand, FlagSpec } from '../types.js';

/**
 * A subcommand that takes flags and no positional arguments (`semantic configure --url URL …`,
 * `encryption on --passphrase-file FILE`): no flags unless given, and a usage line that is its
 * name unless it shows them.
 */
export function flagCommand(
  command: Omit<CliCommand, 'usage' | 'flags' | 'positionals'> & { usage?: string; flags?: FlagSpec },
): CliCommand {
  return { usage: command.name, flags: {}, ...command, positionals: NO_ARGS };
}
