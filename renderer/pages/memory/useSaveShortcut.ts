import { useEffect, useRef } from 'react';
import { registerCommand } from '../../app/commands.js';

/**
 * Ctrl/Cmd+S (and the menu's Save) run `save` while the calling form is mounted. CodeMirror handles
 * the key itself and marks the event handled, so a save is never run twice.
 */
export function useSaveShortcut(save: () => void): void {
  const latest = useRef(save);
  latest.current = save;
  useEffect(() => {
    const off = registerCommand('note.save', () => latest.current());
    function onKey(e: KeyboardEvent) {
      if (!e.defaultPrevented && (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        latest.current();
      }
    }
    window.addEventListener('keydown', onKey);
    return () => {
      off();
      window.removeEventListener('keydown', onKey);
    };
  }, []);
}
