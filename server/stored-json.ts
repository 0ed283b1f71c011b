import type { z } from 'zod';

/**
 * A JSON document the server stored (a manifest, a pack), read back: JSON and schema checked, so a
 * damaged one is an error, never an empty or partial answer. `what` and the key are in the message
 * for the server's log; clients only ever see `internal`.
 */
export function parseStoredJson<S extends z.ZodType>(
  body: Buffer,
  key: string,
  what: string,
  schema: S,
): z.output<S> {
  let data: unknown;
  try {
    data = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new Error(`the ${what} ${key} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success)
    throw new Error(`the ${what} ${key} is malformed: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}
