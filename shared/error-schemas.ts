import { z } from 'zod';
import { ERROR_CODES } from './error-codes.js';

/** The zod side of shared/errors.ts (kept apart so that `AppError` loads no zod). */
export const ErrorCodeSchema = z.enum(ERROR_CODES);

export const ErrorBodySchema = z.object({
  error: z.object({ code: ErrorCodeSchema, message: z.string(), details: z.unknown().optional() }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
