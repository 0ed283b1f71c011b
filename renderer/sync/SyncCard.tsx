import type { ReactNode } from 'react';

/** One card of the Sync page, named by its heading (`headingHidden`: for screen readers only). */
export function SyncCard(props: {
  headingId: string;
  heading: string;
  headingHidden?: boolean;
  children: ReactNode;
}) {
  return (
    <section className="sync-card" aria-labelledby={props.headingId}>
      <h3 id={props.headingId} className={props.headingHidden ? 'sr-only' : undefined}>
        {props.heading}
      </h3>
      {props.children}
    </section>
  );
}
