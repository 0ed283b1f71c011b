import type { z } from 'zod';

/** One method of the API table: what the UI (or the CLI, or an agent) may call, with its schemas. */
export interface ApiMethodDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I;
  output: O;
  /** One line for people reading the table and for generated help. */
  summary: string;
}

export function defineMethod<I extends z.ZodType, O extends z.ZodType>(def: ApiMethodDef<I, O>): ApiMethodDef<I, O> {
  return def;
}
