import type { ApiMethodName, ApiOutput, ApiParsedInput } from '../../shared/api.js';
import { isApiMethod } from '../../shared/api/methods.js';
import { z } from '../../shared/zod-mini.js';
import { AppError } from '../../shared/errors.js';
import { apiMethodDef } from './api-tables.js';

/** The handler table: one function per API method, built on the core services. */
export type ApiHandlers = {
  [M in ApiMethodName]: (input: ApiParsedInput<M>) => Promise<ApiOutput<M>>;
};

/**
 * The one entry point every transport (IPC, HTTP bridge, CLI, MCP) uses: it checks the method exists
 * and validates the input with the API table's schema before any handler sees it (loading only the
 * table of that method's area).
 */
export async function invokeApi(handlers: ApiHandlers, method: string, rawInput: unknown): Promise<unknown> {
  if (!isApiMethod(method)) throw new AppError('invalid_input', `unknown method "${method}"`);
  const parsed = z.safeParse((await apiMethodDef(method)).input, rawInput ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new AppError(
      'invalid_input',
      `${method}: ${where}${issue?.message ?? 'invalid input'}`,
      parsed.error.issues,
    );
  }
  const handler = handlers[method] as (input: unknown) => Promise<unknown>;
  return handler(parsed.data);
}
