import { z } from '../zod-mini.js';

/**
 * One method of the API table: what the UI (or the CLI, or an agent) may call, with its schemas.
 * Any zod schema (zod/mini or zod's full API: one core): the notes table is built with zod/mini so
 * a note command never loads the full API; validate with `z.safeParse(def.input, …)`.
 */
export interface ApiMethodDef<
  I extends z.core.$ZodType = z.core.$ZodType,
  O extends z.core.$ZodType = z.core.$ZodType,
> {
  input: I;
  output: O;
  /** One line for people reading the table and for generated help. */
  summary: string;
}

/** The input of a method that takes nothing: `{}`. */
export const NoInputSchema = z.object({});

export function defineMethod<I extends z.core.$ZodType, O extends z.core.$ZodType>(
  def: ApiMethodDef<I, O>,
): ApiMethodDef<I, O> {
  return def;
}

/**
 * A table whose methods' schemas are each built on first access (then kept): a command that runs
 * one method (a cold `memdesk recall`) builds that method's schemas only, not the table's dozens
 * (zod builds each schema object with its methods bound, which is most of a table's loading cost).
 * Spreading the table or reading every entry builds them all, as before.
 */
export function lazyMethods<T extends Record<string, ApiMethodDef>>(build: {
  [K in keyof T]: () => T[K];
}): T {
  const table = {} as T;
  for (const name of Object.keys(build) as Array<keyof T & string>)
    Object.defineProperty(table, name, {
      enumerable: true,
      configurable: true,
      get() {
        const def = build[name]();
        Object.defineProperty(table, name, { value: def, enumerable: true });
        return def;
      },
    });
  return table;
}
