import { useEffect } from 'react';
import type { ThemeChoice } from '../state/ui-store.js';

/** Sets data-theme on <html>; "system" follows prefers-color-scheme as it changes. */
export function useTheme(choice: ThemeChoice): void {
  useEffect(() => {
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      document.documentElement.dataset.theme = choice === 'system' ? (mq.matches ? 'dark' : 'light') : choice;
    };
    apply();
    mq.addEventListener('change', apply);
    return () => mq.removeEventListener('change', apply);
  }, [choice]);
}
