import { UsageError, type CliCommand, type FlagSpec, type ParsedArgs } from './types.js';

/** A command that takes no positional argument. */
export const NO_ARGS: CliCommand['positionals'] = { min: 0, max: 0, names: '' };

/** A command that takes exactly one positional argument, named as its usage line names it (`ID`). */
export function oneArg(names: string): CliCommand['positionals'] {
  return { min: 1, max: 1, names };
}

/** `--scope project|user`, read with scopeFlag. */
export const SCOPE_FLAG = { scope: 'string' } as const;

/** Parses `--flag value`, `--flag=value`, boolean `--flag`, and `--` (everything after is positional). */
export function parseArgs(argv: readonly string[], spec: FlagSpec, commandName: string): ParsedArgs {
  const positionals: string[] = [];
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const kind = spec[name];
    if (!kind) throw new UsageError(`${commandName}: unknown option --${name}`);
    if (kind === 'boolean') {
      if (eq >= 0) throw new UsageError(`${commandName}: --${name} takes no value`);
      flags[name] = true;
      continue;
    }
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined) throw new UsageError(`${commandName}: --${name} needs a value`);
    flags[name] = value;
  }
  return { positionals, flags };
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags[name];
  return typeof v === 'string' ? v : undefined;
}

export function intFlag(args: ParsedArgs, name: string): number | undefined {
  const v = stringFlag(args, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} must be a whole number, not "${v}"`);
  return Number(v);
}

export function scopeFlag(args: ParsedArgs): 'project' | 'user' | undefined {
  const v = stringFlag(args, 'scope');
  if (v === undefined) return undefined;
  if (v !== 'project' && v !== 'user')
    throw new UsageError(`--scope must be "project" or "user", not "${v}"`);
  return v;
}
