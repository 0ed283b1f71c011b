import { AppError } from '../../../shared/errors.js';
import { parseJsonText } from '../../../shared/parse-json.js';

/**
 * Edits of one harness config file, as pure text → text functions: each adds Memory Desk's entry
 * (replacing an older one of ours, so running setup twice changes nothing), takes it out again, or
 * says whether it is there. Everything else in the file is kept as it was (JSON is re-printed with
 * two-space indentation; TOML is edited as text, a table of our own appended at the end).
 */
export interface ConfigEdit {
  /** The file's new text with our entry in; `text` is null when the file does not exist. */
  add(text: string | null): string;
  /** The file's text with our entry out. */
  remove(text: string): string;
  has(text: string | null): boolean;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseJsonConfig(text: string | null, file: string): Json {
  if (text === null || !text.trim()) return {};
  const value = parseJsonText(
    text,
    (reason) =>
      new AppError(
        'invalid_input',
        `${file} is not plain JSON (${reason}); it was left as it is — fix it, or add Memory Desk by hand (docs/agents.md)`,
      ),
  );
  if (!isObj(value))
    throw new AppError('invalid_input', `${file} is not a JSON object; it was left as it is`);
  return value;
}

const printJson = (value: Json): string => JSON.stringify(value, null, 2) + '\n';

/** `"mcpServers": {"memory-desk": {…}}` in a JSON config (Claude Code, Gemini CLI, Cursor). */
export function jsonMcpServer(file: string, name: string, entry: Json): ConfigEdit {
  return {
    add(text) {
      const doc = parseJsonConfig(text, file);
      const servers = isObj(doc.mcpServers) ? doc.mcpServers : {};
      return printJson({ ...doc, mcpServers: { ...servers, [name]: entry } });
    },
    remove(text) {
      const doc = parseJsonConfig(text, file);
      if (!isObj(doc.mcpServers) || !(name in doc.mcpServers)) return text;
      const { [name]: _ours, ...rest } = doc.mcpServers;
      const next: Json = { ...doc, mcpServers: rest };
      if (Object.keys(rest).length === 0) delete next.mcpServers;
      return printJson(next);
    },
    has(text) {
      if (text === null) return false;
      const doc = parseJsonConfig(text, file);
      return isObj(doc.mcpServers) && name in doc.mcpServers;
    },
  };
}

/** A hook handler is ours when its command runs `… hook <harness> …` of memdesk. */
export function isOurCommand(command: unknown, marker: string): boolean {
  return typeof command === 'string' && command.includes(marker);
}

/**
 * Claude Code's hook layout, also Codex's hooks.json and Gemini CLI's settings: `"hooks": {Event:
 * [{"matcher"?, "hooks": [{"type": "command", "command", "timeout"}]}]}`. Ours is one matcher
 * group per event holding only our handler.
 */
export function groupedHooks(file: string, handlers: Record<string, Json>, marker: string): ConfigEdit {
  const strip = (hooks: Json): Json => {
    const out: Json = {};
    for (const [event, groups] of Object.entries(hooks)) {
      if (!Array.isArray(groups)) {
        out[event] = groups;
        continue;
      }
      const kept = groups
        .map((g) =>
          isObj(g) && Array.isArray(g.hooks)
            ? { ...g, hooks: g.hooks.filter((h) => !(isObj(h) && isOurCommand(h.command, marker))) }
            : g,
        )
        .filter((g) => !(isObj(g) && Array.isArray(g.hooks) && g.hooks.length === 0));
      if (kept.length > 0) out[event] = kept;
    }
    return out;
  };
  const ours = Object.fromEntries(Object.entries(handlers).map(([event, h]) => [event, { hooks: [h] }]));
  return hooksEdit(file, marker, { strip, ours, emptyHooks: 'drop' });
}

/** Cursor's hooks.json: `{"version": 1, "hooks": {event: [{"command"}]}}`. */
export function flatHooks(file: string, handlers: Record<string, Json>, marker: string): ConfigEdit {
  const strip = (hooks: Json): Json => {
    const out: Json = {};
    for (const [event, list] of Object.entries(hooks)) {
      const kept = Array.isArray(list)
        ? list.filter((h) => !(isObj(h) && isOurCommand(h.command, marker)))
        : list;
      if (!Array.isArray(kept) || kept.length > 0) out[event] = kept;
    }
    return out;
  };
  return hooksEdit(file, marker, { strip, ours: handlers, emptyHooks: 'keep', defaults: { version: 1 } });
}

interface HooksLayout {
  /** `"hooks"` without any handler of ours. */
  strip(hooks: Json): Json;
  /** What goes at the end of each event's list: event → our entry. */
  ours: Json;
  /** Once ours are out, an empty `"hooks"` is dropped, or kept (Cursor's file is all hooks). */
  emptyHooks: 'drop' | 'keep';
  /** Keys a new file starts with, unless the file has its own. */
  defaults?: Json;
}

/** add/remove/has over a `"hooks"` object; the layouts differ only in what `HooksLayout` says. */
function hooksEdit(file: string, marker: string, layout: HooksLayout): ConfigEdit {
  return {
    add(text) {
      const doc = parseJsonConfig(text, file);
      const hooks = layout.strip(isObj(doc.hooks) ? doc.hooks : {});
      for (const [event, entry] of Object.entries(layout.ours)) {
        hooks[event] = [...(Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []), entry];
      }
      return printJson({ ...layout.defaults, ...doc, hooks });
    },
    remove(text) {
      const doc = parseJsonConfig(text, file);
      if (!isObj(doc.hooks)) return text;
      const hooks = layout.strip(doc.hooks);
      const next: Json = { ...doc, hooks };
      if (layout.emptyHooks === 'drop' && Object.keys(hooks).length === 0) delete next.hooks;
      return printJson(next);
    },
    has(text) {
      if (text === null) return false;
      const doc = parseJsonConfig(text, file);
      return isObj(doc.hooks) && JSON.stringify(doc.hooks).includes(marker);
    },
  };
}

/**
 * Codex's `config.toml`: a `[mcp_servers.<name>]` table of our own, appended at the end. Found and
 * taken out by its header, up to the next table header; TOML elsewhere in the file is never parsed
 * or rewritten.
 */
export function tomlMcpServer(name: string, command: string, args: readonly string[]): ConfigEdit {
  const header = `[mcp_servers.${name}]`;
  const block = `${header}\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\n`;
  const isHeader = (line: string) => /^\s*\[/.test(line);
  const ours = (line: string) => line.trim() === header || line.trim() === `[mcp_servers."${name}"]`;
  const remove = (text: string): string => {
    const lines = text.split('\n');
    const out: string[] = [];
    let skipping = false;
    for (const line of lines) {
      if (ours(line)) skipping = true;
      else if (skipping && isHeader(line)) skipping = false;
      if (!skipping) out.push(line);
    }
    return out.join('\n').replace(/\n{3,}$/, '\n\n');
  };
  return {
    add(text) {
      const rest = text === null ? '' : remove(text).replace(/\s*$/, '');
      return rest ? `${rest}\n\n${block}` : block;
    },
    remove,
    has: (text) => text !== null && text.split('\n').some(ours),
  };
}
