import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { RequiredField } from '../components/RequiredField.js';

/** The engine refuses shorter passphrases (electron/sync/crypto/keyring.ts); said here before asking. */
export const MIN_PASSPHRASE_CHARS = 8;

/** A new passphrase typed twice: the reason it cannot be used yet, or null. */
function newPassphraseProblem(p: string, again: string, t: TFunction): string | null {
  if (p.length < MIN_PASSPHRASE_CHARS) return t('syncUi.enc.tooShort', { count: MIN_PASSPHRASE_CHARS });
  if (p !== again) return t('syncUi.enc.mismatch');
  return null;
}

export type NewPassphrase = ReturnType<typeof useNewPassphrase>;

/** A new passphrase and its confirmation as typed, and why it cannot be used (set when the form is sent). */
export function useNewPassphrase() {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  return {
    value,
    setValue,
    again,
    setAgain,
    problem,
    /** True when it can be sent; otherwise the reason is shown. `checked` false (a resume) lets it through. */
    accept(checked = true): boolean {
      const why = checked ? newPassphraseProblem(value, again, t) : null;
      setProblem(why);
      return why === null;
    },
    clear() {
      setValue('');
      setAgain('');
    },
  };
}

/** The two fields of a new passphrase: typed, then typed again. */
export function NewPassphraseFields(props: {
  entry: NewPassphrase;
  label: string;
  testId: string;
  confirmTestId: string;
}) {
  const { t } = useTranslation();
  const { entry } = props;
  const typedThenAgain = [
    { label: props.label, value: entry.value, onChange: entry.setValue, testId: props.testId },
    {
      label: t('syncUi.enc.confirm'),
      value: entry.again,
      onChange: entry.setAgain,
      testId: props.confirmTestId,
    },
  ];
  return typedThenAgain.map((field) => (
    <RequiredField key={field.testId} type="password" autoComplete="new-password" {...field} />
  ));
}
