import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../api/queries.js';
import { Dialog } from '../components/Dialog.js';
import { rankFuzzy } from '../state/fuzzy.js';
import { uiStore } from '../state/ui-store.js';

const SHOWN = 30;

/**
 * Ctrl/Cmd+O or Ctrl/Cmd+P, as in Obsidian and VS Code: type a few letters of a note's summary or
 * id, ↑/↓ to choose, Enter to open, Esc to close. Keyboard only; works from every tab.
 */
export function QuickSwitcher() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      const key = e.key.toLowerCase();
      if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && (key === 'o' || key === 'p')) {
        e.preventDefault();
        setOpen(true);
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return open ? <SwitcherDialog onClose={() => setOpen(false)} /> : null;
}

function SwitcherDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const list = useApiQuery('notes.list', { scope: 'both' });
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const matches = useMemo(() => rankFuzzy(query, list.data?.notes ?? [], SHOWN), [query, list.data]);

  function choose(i: number) {
    const m = matches[i];
    if (!m) return;
    onClose();
    uiStore.getState().setActiveTab('memory');
    // As in Obsidian and VS Code, the chosen note gets the focus (not the field focused before).
    uiStore.getState().follow({ kind: 'note', id: m.note.id, scope: m.note.scope }, { focus: true });
  }

  function onKeyDown(e: React.KeyboardEvent) {
    if (e.key === 'ArrowDown') setActive((a) => Math.min(matches.length - 1, a + 1));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
    else if (e.key === 'Enter') choose(active);
    else return;
    e.preventDefault();
  }

  return (
    <Dialog title={t('switcher.title')} onCancel={onClose} testId="quick-switcher" actions={null}>
      <input
        className="switcher-input"
        role="combobox"
        aria-expanded="true"
        aria-controls="switcher-list"
        aria-activedescendant={matches[active] ? `switcher-${active}` : undefined}
        aria-label={t('switcher.input')}
        placeholder={t('switcher.placeholder')}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        data-autofocus
        data-testid="switcher-input"
      />
      <ul id="switcher-list" role="listbox" className="switcher-list" aria-label={t('switcher.results')}>
        {matches.map((m, i) => (
          <li
            key={`${m.note.scope}:${m.note.id}`}
            id={`switcher-${i}`}
            role="option"
            aria-selected={i === active}
            className={i === active ? 'switcher-item active' : 'switcher-item'}
            onMouseDown={(e) => {
              e.preventDefault();
              choose(i);
            }}
            data-note-id={m.note.id}
          >
            <span className="switcher-summary">{m.note.summary || m.note.id}</span>
            <code className="switcher-id">{m.note.id}</code>
          </li>
        ))}
        {/* While the notes load, say so: "no note matches" would be wrong. */}
        {list.isPending ? (
          <li className="muted" data-testid="switcher-loading">
            {t('switcher.loading')}
          </li>
        ) : matches.length === 0 && query ? (
          <li className="muted" data-testid="switcher-none">
            {t('switcher.none')}
          </li>
        ) : null}
      </ul>
    </Dialog>
  );
}
