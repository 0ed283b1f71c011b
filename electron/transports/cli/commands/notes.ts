import type { ApiOutput } from '../../../../shared/api.js';
import { intFlag, NO_ARGS, oneArg, SCOPE_FLAG, scopeFlag, stringFlag } from '../args.js';
import { UsageError, type CliCommand, type CliIo, type ParsedArgs } from '../types.js';
import { apiCommand } from '../api-command.js';

/** remember, list, show, edit, forget, search, recall, index. */

/** `ID [--scope project|user]`: the note a command names. */
function noteRef(args: ParsedArgs): { id: string; scope?: 'project' | 'user' } {
  const scope = scopeFlag(args);
  return { id: args.positionals[0]!, ...(scope ? { scope } : {}) };
}

async function bodyFrom(io: CliIo, args: ParsedArgs, required: boolean): Promise<string | undefined> {
  const body = stringFlag(args, 'body');
  const file = stringFlag(args, 'body-file');
  if (body !== undefined && file !== undefined)
    throw new UsageError('give either --body or --body-file, not both');
  if (body !== undefined) return body;
  if (file !== undefined) {
    try {
      return file === '-' ? ((await io.readStdin()) ?? '') : await io.readFile(file);
    } catch (err) {
      throw new UsageError(`cannot read --body-file ${file}: ${(err as Error).message}`);
    }
  }
  if (!required) return undefined;
  const stdin = await io.readStdin();
  if (stdin === null)
    throw new UsageError('remember needs a body: --body TEXT, --body-file F, or the body on stdin');
  return stdin;
}

/** `--type none` (or an empty value) removes the type on edit. */
function typeFlag(args: ParsedArgs, allowNone: boolean): string | null | undefined {
  const t = stringFlag(args, 'type');
  if (t === undefined) return undefined;
  if (allowNone && (t === '' || t === 'none')) return null;
  return t;
}

function noteLine(n: {
  id: string;
  scope: string;
  type?: string | undefined;
  summary: string;
  tags: string[];
}): string {
  const tags = n.tags.length ? `  #${n.tags.join(' #')}` : '';
  return `${n.id}  [${n.scope}${n.type ? `, ${n.type}` : ''}]  ${n.summary}${tags}`;
}

function warningLines(warnings: Array<{ message: string }>): string[] {
  return warnings.map((w) => `warning: ${w.message}`);
}

function showText(n: ApiOutput<'notes.get'>): string {
  const lines = [
    `${n.id}  [${n.scope}${n.type ? `, ${n.type}` : ''}]`,
    `summary: ${n.summary}`,
    `tags: ${n.tags.join(', ') || '(none)'}`,
    `created: ${new Date(n.createdAt).toISOString()}  updated: ${new Date(n.updatedAt).toISOString()}`,
    `hash: ${n.hash}`,
  ];
  if (n.links.length)
    lines.push(
      `links: ${n.links.map((l) => `${l.id}${l.resolved ? ` (${l.resolved})` : ' (not written yet)'}`).join(', ')}`,
    );
  if (n.backlinks.length)
    lines.push(`linked from: ${n.backlinks.map((b) => `${b.id} (${b.scope})`).join(', ')}`);
  lines.push(`recalled: ${n.recallCount} time${n.recallCount === 1 ? '' : 's'}`, '', n.body);
  return lines.join('\n');
}

type SearchHit = ApiOutput<'notes.search'>['notes'][number];

/** One line per hit and, under it, why it matched: score part and matched terms per field. */
function hitsText(notes: SearchHit[]): string {
  if (notes.length === 0) return 'no matching notes';
  return notes
    .map((h) => `${h.score.toFixed(2).padStart(7)}  ${h.id}  [${h.scope}]  ${h.summary}\n${whyText(h)}`)
    .join('\n');
}

function whyText(hit: SearchHit): string {
  const { matched, parts } = hit.why;
  const fields = (['summary', 'tags', 'body'] as const)
    .filter((f) => parts[f] > 0 || matched[f].length > 0)
    .map((f) => `${f} ${parts[f].toFixed(2)} (${matched[f].join(', ')})`);
  if (parts.usage > 0) fields.push(`usage ${parts.usage.toFixed(2)}`);
  if (parts.proximity) fields.push(`proximity ${parts.proximity.toFixed(2)}`);
  if (hit.why.semantic && parts.semantic !== undefined)
    fields.push(
      `semantic ${parts.semantic.toFixed(3)} (similarity ${hit.why.semantic.similarity.toFixed(2)}, rank ${hit.why.semantic.rank})`,
    );
  return `         why: ${fields.join(' · ') || 'no term matched'}`;
}

export const notesCommands: CliCommand[] = [
  {
    name: 'remember',
    usage:
      'remember --summary S [--type T] [--tags "a, b"] [--scope project|user] [--id ID] [--body TEXT | --body-file F]',
    summary: 'Write a new note (the body comes from stdin when neither --body nor --body-file is given).',
    flags: {
      summary: 'string',
      type: 'string',
      tags: 'string',
      id: 'string',
      body: 'string',
      'body-file': 'string',
      ...SCOPE_FLAG,
    },
    positionals: NO_ARGS,
    async run(io, args) {
      const summary = stringFlag(args, 'summary');
      if (summary === undefined) throw new UsageError('remember needs --summary');
      const body = (await bodyFrom(io, args, true))!;
      const type = typeFlag(args, false);
      const tags = stringFlag(args, 'tags');
      const scope = scopeFlag(args);
      const id = stringFlag(args, 'id');
      // A full scope is refused from its directory listing, before any note is loaded (an unknown
      // type is left to the API's own check, which names it).
      const { defaultScopeForType, NOTE_TYPES } = await import('../../../../shared/note.js');
      const known = NOTE_TYPES.find((t) => t === type);
      if (!type || known) {
        const { refuseIfScopeFull } = await import('../../../memory/scope-full.js');
        await refuseIfScopeFull(io.place, scope ?? defaultScopeForType(known));
      }
      const out = await io.invoke('notes.remember', {
        summary,
        body,
        ...(type ? { type: type as never } : {}),
        ...(tags !== undefined ? { tags } : {}),
        ...(scope ? { scope } : {}),
        ...(id !== undefined ? { id } : {}),
      });
      const lines = [`remembered ${out.id} (${out.scope})`];
      if (out.duplicateOf) lines.push(`probable duplicate of: ${out.duplicateOf}`);
      if (out.related.length)
        lines.push('related:', ...out.related.map((r) => `  ${r.id} [${r.scope}]  ${r.summary}`));
      if (out.danglingLinks.length)
        lines.push(`links to notes not written yet: ${out.danglingLinks.join(', ')}`);
      return { json: out, text: lines.join('\n') };
    },
  },
  {
    name: 'list',
    usage: 'list [--scope project|user]',
    summary: 'List notes, most recently updated first (both scopes unless --scope).',
    flags: SCOPE_FLAG,
    positionals: NO_ARGS,
    async run(io, args) {
      const out = await io.invoke('notes.list', { scope: scopeFlag(args) ?? 'both' });
      return {
        json: out,
        text: out.notes.length ? out.notes.map(noteLine).join('\n') : 'no notes',
        notices: warningLines(out.warnings),
      };
    },
  },
  apiCommand(
    {
      name: 'show',
      usage: 'show ID [--scope project|user]',
      summary: 'Show one note with its links, backlinks and recall count.',
      flags: SCOPE_FLAG,
      positionals: oneArg('ID'),
    },
    'notes.get',
    noteRef,
    showText,
  ),
  {
    name: 'edit',
    usage:
      'edit ID [--summary S] [--type T|none] [--tags T] [--body TEXT | --body-file F] [--scope project|user]',
    summary: 'Change a note; fields not given stay as they are.',
    flags: {
      summary: 'string',
      type: 'string',
      tags: 'string',
      body: 'string',
      'body-file': 'string',
      'base-hash': 'string',
      ...SCOPE_FLAG,
    },
    positionals: oneArg('ID'),
    async run(io, args) {
      const scope = scopeFlag(args);
      const summary = stringFlag(args, 'summary');
      const type = typeFlag(args, true);
      const tags = stringFlag(args, 'tags');
      const body = await bodyFrom(io, args, false);
      const baseHash = stringFlag(args, 'base-hash');
      if (summary === undefined && type === undefined && tags === undefined && body === undefined) {
        throw new UsageError('edit needs at least one of --summary, --type, --tags, --body, --body-file');
      }
      const out = await io.invoke('notes.edit', {
        id: args.positionals[0]!,
        ...(scope ? { scope } : {}),
        ...(summary !== undefined ? { summary } : {}),
        ...(type !== undefined ? { type: type as never } : {}),
        ...(tags !== undefined ? { tags } : {}),
        ...(body !== undefined ? { body } : {}),
        ...(baseHash !== undefined ? { baseHash } : {}),
      });
      return { json: out, text: `edited ${out.id} (${out.scope})` };
    },
  },
  apiCommand(
    {
      name: 'forget',
      usage: 'forget ID [--scope project|user]',
      summary: 'Delete a note (it is backed up first).',
      flags: SCOPE_FLAG,
      positionals: oneArg('ID'),
    },
    'notes.forget',
    noteRef,
    (out) => `forgot ${out.id} (${out.scope}); backup ${out.backupId}`,
  ),
  {
    name: 'search',
    usage: 'search QUERY [--limit N] [--scope project|user] | search --stdin [--limit N]',
    summary:
      'Ranked search over every field of every note, best first. --stdin: one query per line in, one JSON line per query out.',
    flags: { limit: 'string', stdin: 'boolean', ...SCOPE_FLAG },
    positionals: { min: 0, max: 1, names: 'QUERY' },
    async run(io, args) {
      const limit = intFlag(args, 'limit') ?? 20;
      if (limit < 1) throw new UsageError('--limit must be at least 1');
      const scope = scopeFlag(args) ?? 'both';
      if (args.flags.stdin) {
        if (args.positionals.length)
          throw new UsageError('search --stdin reads queries from stdin; give no QUERY');
        for await (const line of io.stdinLines()) {
          if (!line.trim()) continue;
          const out = await io.invoke('notes.search', { query: line, limit, scope });
          io.out(JSON.stringify({ query: line, notes: out.notes }) + '\n');
        }
        return { json: null, text: '', streamed: true };
      }
      const query = args.positionals[0];
      if (query === undefined) throw new UsageError('search needs a QUERY (or --stdin)');
      const out = await io.invoke('notes.search', { query, limit, scope });
      return { json: out, text: hitsText(out.notes), notices: out.notice ? [out.notice] : [] };
    },
  },
  {
    name: 'recall',
    usage: 'recall MESSAGE [--attached id,id]',
    summary:
      'What per-message recall would attach to this message (a preview: recall counts are not changed).',
    flags: { attached: 'string' },
    positionals: oneArg('MESSAGE'),
    async run(io, args) {
      const attached = (stringFlag(args, 'attached') ?? '').split(/[,\s]+/).filter(Boolean);
      const out = await io.invoke('notes.recall', {
        message: args.positionals[0]!,
        alreadyAttached: attached,
      });
      return {
        json: out,
        text: out.notes.length ? `${out.text}\n${hitsText(out.notes)}` : 'nothing would be recalled',
        notices: out.notice ? [out.notice] : [],
      };
    },
  },
  apiCommand(
    { name: 'index', summary: 'The memory index as the system prompt shows it.' },
    'notes.index',
    {},
    (out) => out.text,
  ),
];
