import type { ApiMethodName } from '../../../shared/api.js';

/**
 * Calls the API table: `(method, input) => invokeApi(handlers, method, input)` — the CLI's
 * `io.invoke` is exactly that, so every tool call is validated by the API schema and handled by
 * the handler table, never around it.
 */
export type InvokeApi = (method: ApiMethodName, input: never) => Promise<unknown>;
