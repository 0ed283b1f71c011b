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
