/**
 * Errors for people, with no zod: every command loads this module (through the core and the
 * transports), and zod's full API is ~55 ms of a cold `memdesk` start (docs/performance.md). The
 * schemas of the error body are in shared/error-schemas.ts, built from ERROR_CODES (its own file,
 * shared/error-codes.ts, so that neither imports the other); only their types are imported here
 * (erased at run time).
 */
import type { ErrorCode } from './error-codes.js';
import type { ErrorBody } from './error-schemas.js';

export { ERROR_CODES, type ErrorCode } from './error-codes.js';

/** What every transport sends for a failure: a type only, inferred from ErrorBodySchema. */
export type { ErrorBody };

/** An error meant for a person: its message is shown as is. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export function toErrorBody(err: unknown): ErrorBody {
  if (err instanceof AppError) {
    return {
      error: {
        code: err.code,
        message: err.message,
        ...(err.details !== undefined ? { details: err.details } : {}),
      },
    };
  }
  return { error: { code: 'internal', message: err instanceof Error ? err.message : String(err) } };
}
