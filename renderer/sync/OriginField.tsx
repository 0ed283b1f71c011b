import { useTranslation } from 'react-i18next';

/** The sync server's URL, as both sign-in forms (browser and pasted token) ask for it. */
export function OriginField({
  value,
  onChange,
  testId,
}: {
  value: string;
  onChange: (origin: string) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <label>
      <span>{t('syncUi.origin')}</span>
      <input
        type="url"
        required
        placeholder="https://sync.example.com"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
    </label>
  );
}
