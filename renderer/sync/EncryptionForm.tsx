import type { FormEvent, ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api/errors.js';

/** The wrong-passphrase refusal in the page's language; anything else as the core said it. */
function errorText(err: ApiError, t: TFunction, usedCode: boolean): string {
  const failure = (err.details as { failure?: unknown } | undefined)?.failure;
  if (failure === 'wrong_passphrase')
    return t(usedCode ? 'syncUi.enc.wrongCode' : 'syncUi.enc.wrongPassphrase');
  return err.message;
}

/** Each form's label (its button's words too) and what the core is doing while it is sent. */
const FORM_WORDS = {
  on: { label: 'syncUi.enc.turnOn', working: 'syncUi.enc.turningOn' },
  unlock: { label: 'syncUi.enc.unlock', working: 'syncUi.enc.unlocking' },
  change: { label: 'syncUi.enc.change', working: 'syncUi.enc.changing' },
} as const;

/**
 * The frame of the encryption forms (turn on, unlock, change passphrase): their fields, the submit
 * button, the progress line while the core works, and the refusal in words. `name` names the form
 * (`sync-enc-NAME-form`) and its button (`sync-enc-NAME`), and picks their words.
 */
export function EncryptionForm(props: {
  name: keyof typeof FORM_WORDS;
  /** The button's words when not the form's label (resuming). */
  submitLabel?: string;
  onSubmit: () => void;
  mutation: { isPending: boolean; error: ApiError | null };
  /** What the core is doing while pending, when it says more than the form's usual words (a phase). */
  workingLabel?: string;
  /** Known amounts (the re-upload): the bar says how far it is. */
  progress?: { done: number; total: number } | undefined;
  /** Why the typed passphrase cannot be sent; shown before the core's refusal. */
  problem?: string | null;
  /** Unlocking with the recovery code: a wrong one is called a wrong code. */
  usedCode?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { isPending, error } = props.mutation;
  const label = t(FORM_WORDS[props.name].label);
  const refusal = props.problem ?? (error ? errorText(error, t, props.usedCode ?? false) : null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit();
  };
  return (
    <form
      className="sync-enc-form"
      onSubmit={submit}
      aria-label={label}
      data-testid={`sync-enc-${props.name}-form`}
    >
      {props.children}
      <button type="submit" className="primary" disabled={isPending} data-testid={`sync-enc-${props.name}`}>
        {props.submitLabel ?? label}
      </button>
      {isPending ? (
        <Working label={props.workingLabel ?? t(FORM_WORDS[props.name].working)} value={props.progress} />
      ) : null}
      {refusal ? (
        <p className="error" role="alert" data-testid="sync-enc-error">
          {refusal}
        </p>
      ) : null}
    </form>
  );
}

function Working({ label, value }: { label: string; value: { done: number; total: number } | undefined }) {
  return (
    <div className="sync-progress" role="status" data-testid="sync-enc-working">
      <div
        className="sync-progress-bar"
        role="progressbar"
        aria-label={label}
        {...(value ? { 'aria-valuemin': 0, 'aria-valuemax': value.total, 'aria-valuenow': value.done } : {})}
      />
      <span data-testid="sync-enc-progress">{label}</span>
    </div>
  );
}
