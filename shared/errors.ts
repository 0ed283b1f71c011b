import { z } from 'zod';

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
export const ErrorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const ErrorBodySchema = z.object({
  error: z.object({ code: ErrorCodeSchema, message: z.string(), details: z.unknown().optional() }),
});

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

export function toErrorBody(err: unknown): z.infer<typeof ErrorBodySchema> {
  if (err instanceof AppError) {
    return { error: { code: err.code, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) } };
  }
  return { error: { code: 'internal', message: err instanceof Error ? err.message : String(err) } };
}
