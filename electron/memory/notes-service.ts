import { AppError } from '../../shared/errors.js';
import { defaultScopeForType, type Note, type Scope } from '../../shared/note.js';
import { generateNoteId, noteIdProblem } from '../../shared/note-id.js';
import { normalizeTags } from '../../shared/tags.js';
import { refuseCredentials } from './credentials.js';
import { scopeFullError } from './scope-full.js';
import type {
  EditRequest,
  MemoryCore,
  NoteStore,
  NotesService,
  RememberRequest,
  RememberResult,
  StoredNote,
} from './types.js';

/**
 * remember / edit / forget: the one place the rules for writing notes by request live (API
 * handlers, retain and the MCP server all come through here).
 */
export function createNotesService(core: MemoryCore): NotesService {
  function storeFor(scope: Scope): NoteStore {
    const s = core.store(scope);
    if (s) return s;
    throw new AppError(
      'unavailable',
      scope === 'project'
        ? 'there is no project here: run inside a project directory or pass --project DIR'
        : `your own notes directory is unavailable (${core.user.warnings().find((w) => w.code === 'user_dir_unavailable')?.message ?? 'it cannot be created'})`,
    );
  }

  function find(ref: { id: string; scope?: Scope }): StoredNote {
    const scopes: Scope[] = ref.scope ? [ref.scope] : ['project', 'user'];
    for (const scope of scopes) {
      const note = core.store(scope)?.get(ref.id);
      if (note) return note;
    }
    throw new AppError('not_found', `no note "${ref.id}"${ref.scope ? ` in the ${ref.scope} scope` : ''}`);
  }

  function danglingLinks(note: StoredNote): string[] {
    return note.links.filter((l) => l !== note.id && core.resolveLink(l) === null);
  }

  async function remember(req: RememberRequest): Promise<RememberResult> {
    const summary = req.summary.trim();
    if (!summary) throw new AppError('invalid_input', 'a summary is required');
    const tags = normalizeTags(req.tags ?? []);
    await refuseCredentials([
      ['the summary', summary],
      ['the tags', tags.join(' ')],
      ['the body', req.body],
    ]);
    const scope = req.scope ?? defaultScopeForType(req.type);
    const store = storeFor(scope);
    let id = req.id?.trim();
    if (id !== undefined) {
      const problem = noteIdProblem(id);
      if (problem) throw new AppError('invalid_input', `invalid note id "${id}": ${problem}`);
      const existing = store.get(id);
      if (existing) {
        throw new AppError(
          'conflict',
          existing.id === id
            ? `a note "${id}" already exists in the ${scope} scope; edit it or choose another id`
            : `a note "${existing.id}" already exists in the ${scope} scope; ids equal ignoring case name the same file on macOS and Windows, so "${id}" is refused`,
        );
      }
    } else {
      id = generateNoteId(summary);
      for (let i = 0; store.get(id) && i < 20; i++) id = generateNoteId(summary);
    }
    // The store's own limit: the user scope's is the user config's, not core.config's (project-layered).
    if (store.isFull()) throw scopeFullError(scope, store.fileCount(), store.maxNotes);
    const draft = { summary, tags, body: req.body, ...(req.type !== undefined ? { type: req.type } : {}) };
    const { related, duplicateOf } = core.search().related(draft, { limit: 5 });
    const now = core.now();
    const note: Note = {
      id,
      summary,
      ...(req.type !== undefined ? { type: req.type } : {}),
      tags,
      createdAt: now,
      updatedAt: now,
      body: req.body,
      ...(req.extra && Object.keys(req.extra).length > 0 ? { extra: req.extra } : {}),
    };
    const stored = await store.write(note, { expectedHash: null });
    return {
      note: stored,
      related: related.map((h) => ({ id: h.id, scope: h.scope, summary: h.summary })),
      duplicateOf: duplicateOf
        ? { id: duplicateOf.id, scope: duplicateOf.scope, summary: duplicateOf.summary }
        : null,
      danglingLinks: danglingLinks(stored),
    };
  }

  async function edit(req: EditRequest): Promise<StoredNote> {
    const current = find(req);
    const store = storeFor(current.scope);
    if (req.baseHash !== undefined && req.baseHash !== current.hash) {
      throw new AppError(
        'conflict',
        `the note "${current.id}" changed since you opened it; reload it and apply your change again`,
      );
    }
    const summary = req.summary !== undefined ? req.summary.trim() : current.summary;
    if (!summary) throw new AppError('invalid_input', 'the summary must not be empty');
    const tags = req.tags !== undefined ? normalizeTags(req.tags) : current.tags;
    const body = req.body ?? current.body;
    await refuseCredentials([
      ['the summary', req.summary !== undefined ? summary : undefined],
      ['the tags', req.tags !== undefined ? tags.join(' ') : undefined],
      ['the body', req.body],
    ]);
    const type = req.type === null ? undefined : (req.type ?? current.type);
    const note: Note = {
      id: current.id,
      summary,
      ...(type !== undefined ? { type } : {}),
      tags,
      createdAt: current.createdAt,
      updatedAt: core.now(),
      body,
      ...(current.extra ? { extra: current.extra } : {}),
    };
    // Always against the version read: a change on disk meanwhile is refused, never overwritten.
    return store.write(note, {
      expectedHash: current.hash,
      ...(req.backupReason !== undefined ? { backupReason: req.backupReason } : {}),
    });
  }

  async function forget(ref: { id: string; scope?: Scope; reason?: string }) {
    const current = find(ref);
    const { backupId } = await storeFor(current.scope).delete(current.id, {
      backupReason: ref.reason ?? 'forget',
    });
    return { id: current.id, scope: current.scope, backupId };
  }

  return { remember, edit, forget, find };
}
