import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog: role="dialog", aria-modal, labelled by its title, Escape cancels, focus moves in
 * on open and goes back where it was on close, Tab stays inside.
 */
export function Dialog(props: {
  title: string;
  children: ReactNode;
  actions: ReactNode;
  onCancel: () => void;
  wide?: boolean;
  testId?: string;
}) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>(
      '[data-autofocus], button, [href], input, select, textarea',
    );
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
        <div className="dialog-actions">{props.actions}</div>
      </div>
    </div>
  );
}

export function ConfirmDialog(props: {
  title: string;
  body: string;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog
      title={props.title}
      onCancel={props.onCancel}
      testId="confirm-dialog"
      actions={
        <>
          <button type="button" onClick={props.onCancel}>
            {props.cancelLabel}
          </button>
          <button
            type="button"
            className={props.danger ? 'danger' : 'primary'}
            onClick={props.onConfirm}
            data-autofocus
          >
            {props.confirmLabel}
          </button>
        </>
      }
    >
      <p>{props.body}</p>
    </Dialog>
  );
}
