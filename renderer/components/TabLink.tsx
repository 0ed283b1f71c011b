import type { ReactNode } from 'react';
import { uiStore } from '../state/ui-store.js';

/** A button that reads as a link and opens one of the app's tabs. */
export function TabLink(props: { tab: string; testId?: string; children: ReactNode }) {
  return (
    <button
      type="button"
      className="link"
      onClick={() => uiStore.getState().setActiveTab(props.tab)}
      data-testid={props.testId}
    >
      {props.children}
    </button>
  );
}
