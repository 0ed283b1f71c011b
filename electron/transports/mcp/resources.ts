import type { ApiOutput } from '../../../shared/api.js';
import { AppError } from '../../../shared/errors.js';
import type { InvokeApi } from './invoke.js';

/**
 * MCP resources: `memory://index` (the memory index as the system prompt shows it) and one per note,
 * `memory://note/<scope>/<id>` (the note in full, as Markdown). Only notes an agent in this project
 * sees are listed (user notes tagged for other projects are not).
 */
export const INDEX_URI = 'memory://index';
const NOTE_URI = /^memory:\/\/note\/(project|user)\/(.+)$/;

export function noteUri(scope: string, id: string): string {
  return `memory://note/${scope}/${encodeURIComponent(id)}`;
}

export async function listResources(invoke: InvokeApi) {
  const prompt = (await invoke('agents.prompt', {} as never)) as ApiOutput<'agents.prompt'>;
  return [
    {
      uri: INDEX_URI,
      name: 'memory-index',
      title: 'Memory index',
      description: `One line per note, newest first (${prompt.shown} shown, ${prompt.omitted} more not shown).`,
      mimeType: 'text/markdown',
    },
    ...prompt.notes.map((n) => ({
      uri: noteUri(n.scope, n.id),
      name: n.id,
      title: n.summary,
      description: `${n.scope} note: ${n.summary}`,
      mimeType: 'text/markdown',
    })),
  ];
}

export async function readResource(invoke: InvokeApi, uri: string) {
  if (uri === INDEX_URI) {
    const { text } = (await invoke('agents.prompt', {} as never)) as ApiOutput<'agents.prompt'>;
    return { uri, mimeType: 'text/markdown', text };
  }
  const m = NOTE_URI.exec(uri);
  if (!m)
    throw new AppError('not_found', `no such resource: ${uri} (memory://index, memory://note/<scope>/<id>)`);
  const note = (await invoke('notes.get', {
    id: decodeURIComponent(m[2]!),
    scope: m[1],
  } as never)) as ApiOutput<'notes.get'>;
  const tags = note.tags.length > 0 ? `\nTags: ${note.tags.join(', ')}` : '';
  return { uri, mimeType: 'text/markdown', text: `# ${note.summary}${tags}\n\n${note.body}` };
}
