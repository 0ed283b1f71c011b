import { useTranslation } from 'react-i18next';
import { RequiredField } from '../components/RequiredField.js';

/** The sync server's URL, as both sign-in forms (browser and pasted token) ask for it. */
export function OriginField(props: { value: string; onChange: (origin: string) => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <RequiredField label={t('syncUi.origin')} type="url" placeholder="https://sync.example.com" {...props} />
  );
}
