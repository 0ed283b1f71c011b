import { hiddenInProject } from './project-tag.js';
import { neutralizeTags } from './recall.js';
import { DEFAULT_INDEX_CHARS } from './scoring.js';
import type { IndexText, IndexTextEntry } from './types.js';

/**
 * What the system prompt shows instead of the index when there are no notes at all: two lines
 * saying when to write one, instead of the full guidance.
 */
export const EMPTY_INDEX_GUIDANCE =
  'No memory notes yet.\n' +
  'Write one with remember when you learn something worth keeping across sessions (a preference, a correction, a fact about this project not in the code); not for what the code or git history already says.';

/**
 * The memory index: one line per note, most recently updated first, within `indexChars`
 * characters (the whole text, including the last line that counts the notes left out). Notes
 * that do not fit are counted, never lost: the memory tool searches them all.
 *
 * Line format: `- <id> [<scope>, <type>]: <summary>` (whitespace in summaries folded to one line).
 */
export function buildIndexText(
  all: readonly IndexTextEntry[],
  indexChars: number = DEFAULT_INDEX_CHARS,
  projectLabel?: string,
): IndexText {
  // In a project, user notes tagged only for other projects are not this project's memory.
  const notes =
    projectLabel === undefined
      ? all
      : all.filter((n) => !hiddenInProject({ scope: n.scope, tags: n.tags ?? [] }, projectLabel));
  if (notes.length === 0) return { text: EMPTY_INDEX_GUIDANCE, shown: 0, omitted: 0 };
  const limit = Math.max(0, Math.floor(indexChars));
  const sorted = [...notes].sort(
    (a, b) =>
      b.updatedAt - a.updatedAt ||
      (a.scope === b.scope ? 0 : a.scope === 'project' ? -1 : 1) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const lines = sorted.map(indexLine);
  // Everything fits: no trailer needed.
  let total = 0;
  for (const l of lines) total += l.length + 1;
  if (total - 1 <= limit) return { text: lines.join('\n'), shown: lines.length, omitted: 0 };

  // Otherwise take lines while they and the trailer for the rest still fit.
  const kept: string[] = [];
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const omittedAfter = lines.length - i - 1;
    const need = used + line.length + 1 + trailer(omittedAfter).length;
    if (need > limit) break;
    kept.push(line);
    used += line.length + 1;
  }
  const omitted = lines.length - kept.length;
  return {
    text: kept.join('\n') + (kept.length ? '\n' : '') + trailer(omitted),
    shown: kept.length,
    omitted,
  };
}

function indexLine(n: IndexTextEntry): string {
  const label = n.type ? `${n.scope}, ${n.type}` : n.scope;
  return `- ${n.id} [${label}]: ${neutralizeTags(n.summary.replace(/\s+/g, ' ').trim())}`;
}

function trailer(omitted: number): string {
  return `… and ${omitted} more ${omitted === 1 ? 'note' : 'notes'} not shown (search them with the memory tool).`;
}
