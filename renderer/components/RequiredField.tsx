import type { InputHTMLAttributes } from 'react';

/** A one-line input that must be filled, under its visible label (the sign-in and passphrase forms). */
export function RequiredField({
  label,
  value,
  onChange,
  testId,
  ...input
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
} & Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'autoComplete' | 'placeholder' | 'spellCheck'>) {
  return (
    <label>
      <span>{label}</span>
      <input
        {...input}
        required
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
    </label>
  );
}
