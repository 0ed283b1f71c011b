import { AppError } from '../../../shared/errors.js';

/**
 * A refusal the command gives an exit code of its own (docs/cli.md, "Errors and exit codes"), so a
 * script can tell, say, a denied sign-in from an expired one. Printed like any other error.
 * Not in types.ts: that module is loaded by `memdesk mcp`'s front (through globals.ts), which must
 * stays as small as it can before initialize is answered (test/mcp/mcp-first.test.ts).
 */
export class ExitCodeError extends AppError {
  constructor(
    cause: AppError,
    readonly exitCode: number,
  ) {
    super(cause.code, cause.message, cause.details);
    this.name = 'ExitCodeError';
  }
}
