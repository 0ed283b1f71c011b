/**
 * Errors for people, with no zod: every command loads this module (through the core and the
 * transports), and zod's full API is ~55 ms of a cold `memdesk` start (docs/performance.md). The
 * schemas of the error body are in shared/error-schemas.ts, built from ERROR_CODES; only their
 * types are imported here (erased at run time).
 */
import type { ErrorBody } from './error-schemas.js';

/**
 * Error codes every transport reports the same way: `{error: {code, message}}`.
 * `invalid_input` and `refused` map to CLI exit code 1; transports map the rest as they see fit.
 */
export const ERROR_CODES = [
  'invalid_input',
  'refused',
  'not_found',
  'conflict',
  'limit_exceeded',
  'io_error',
  'unavailable',
  'sync_error',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

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
