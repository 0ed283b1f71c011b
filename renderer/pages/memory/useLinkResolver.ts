import { useCallback, useMemo } from 'react';
import type { Scope } from '../../../shared/note.js';
import { useApiQuery } from '../../api/queries.js';

/**
 * Which `[[ids]]` name an existing note, for marking dangling links while typing and for opening
 * them: project first, then user; ids are compared ignoring case, as the core does.
 */
export function useLinkResolver() {
  const all = useApiQuery('notes.list', { scope: 'both' });
  const index = useMemo(() => {
    const m = new Map<string, { id: string; scope: Scope }>();
    for (const n of all.data?.notes ?? []) {
      const key = n.id.toLowerCase();
      const prev = m.get(key);
      if (!prev || (prev.scope === 'user' && n.scope === 'project')) m.set(key, { id: n.id, scope: n.scope });
    }
    return m;
  }, [all.data]);
  const target = useCallback((id: string) => index.get(id.toLowerCase()) ?? null, [index]);
  const resolve = useCallback((id: string) => index.has(id.toLowerCase()), [index]);
  return { resolve, target, version: `${index.size}:${all.dataUpdatedAt}` };
}
