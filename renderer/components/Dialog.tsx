import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A modal dialog: role="dialog", aria-modal, labelled by its title, Escape cancels, focus moves in
 * on open (to the element marked `data-autofocus`, else the first focusable one) and goes back where
 * it was on close, Tab stays inside.
 */
export function Dialog(props: {
  title: string;
  children: ReactNode;
  actions: ReactNode;
  onCancel: () => void;
  /** The words of a first button that closes the dialog as Escape does ("Cancel", "Decide later"). */
  dismissLabel?: string;
  wide?: boolean;
  testId?: string;
}) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    // The marked element first: one selector list would match in document order, and a Cancel
    // drawn before the marked button would win.
    const first =
      ref.current?.querySelector<HTMLElement>('[data-autofocus]') ??
      ref.current?.querySelector<HTMLElement>('button, [href], input, select, textarea');
    first?.focus();
    // Back where it was, unless what the dialog did moved the focus on (the quick switcher's note).
    return () => {
      const now = document.activeElement;
      if (!now || now === document.body || ref.current?.contains(now)) previous?.focus?.();
    };
  }, []);
  function onKeyDown(e: React.KeyboardEvent) {
    if (e.key === 'Escape') {
      e.stopPropagation();
      props.onCancel();
    }
    if (e.key === 'Tab' && ref.current) {
      const items = [
        ...ref.current.querySelectorAll<HTMLElement>(
          'button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])',
        ),
      ].filter((el) => !el.hasAttribute('disabled'));
      if (items.length === 0) return;
      const first = items[0]!;
      const last = items[items.length - 1]!;
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    }
  }
  return (
    <div className="dialog-backdrop">
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className={props.wide ? 'dialog dialog-wide' : 'dialog'}
        onKeyDown={onKeyDown}
        data-testid={props.testId}
      >
        <h2 id={titleId}>{props.title}</h2>
        <div className="dialog-body">{props.children}</div>
        <div className="dialog-actions">
          {props.dismissLabel ? (
            <button type="button" onClick={props.onCancel}>
              {props.dismissLabel}
            </button>
          ) : null}
          {props.actions}
        </div>
      </div>
    </div>
  );
}

/** What a confirmation says: its title, its question, and the words of the button that goes ahead. */
export interface ConfirmText {
  title: string;
  body: string;
  confirmLabel: string;
  /** Going ahead throws something away: the button says so by its colour. */
  danger?: boolean;
}

/**
 * Asks before going ahead: Cancel (or Esc), or the button that goes ahead. It opens on the button
 * that goes ahead, unless going ahead throws something away: then on Cancel, so that an Enter
 * pressed as the dialog appears loses nothing.
 */
function ConfirmDialog(props: ConfirmText & { onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const goAhead = (
    <button
      type="button"
      className={props.danger ? 'danger' : 'primary'}
      onClick={props.onConfirm}
      {...(props.danger ? {} : { 'data-autofocus': true })}
    >
      {props.confirmLabel}
    </button>
  );
  return (
    <Dialog
      title={props.title}
      onCancel={props.onCancel}
      dismissLabel={t('confirm.cancel')}
      testId="confirm-dialog"
      actions={goAhead}
    >
      <p>{props.body}</p>
    </Dialog>
  );
}

/**
 * An action that asks first. `ask(about)` opens the ConfirmDialog that `dialog` renders (nothing
 * while not asking); cancelling closes it, confirming closes it and then acts on `about` — what is
 * asked about (true when there is nothing more to say), which the dialog's words may name.
 */
export function useConfirm<About = true>(act: (about: About) => void) {
  const [about, setAbout] = useState<About | null>(null);
  return {
    ask: (next: About) => setAbout(next),
    dialog(text: ConfirmText | ((about: About) => ConfirmText)): ReactNode {
      if (about === null) return null;
      const words = typeof text === 'function' ? text(about) : text;
      const confirm = () => {
        setAbout(null);
        act(about);
      };
      return <ConfirmDialog {...words} onCancel={() => setAbout(null)} onConfirm={confirm} />;
    },
  };
}
