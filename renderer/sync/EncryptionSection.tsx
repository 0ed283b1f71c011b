import { useEffect, useId, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { EncryptionStatus } from '../../shared/api/encryption.js';
import type { EncryptionProgress } from '../../shared/events.js';
import { useApiClient } from '../api/context.js';
import { useApiQuery } from '../api/queries.js';
import { showToast } from '../state/toast-store.js';
import { RequiredField } from '../components/RequiredField.js';
import { EncryptionForm } from './EncryptionForm.js';
import { useSyncMutation } from './hooks.js';
import { MIN_PASSPHRASE_CHARS, NewPassphraseFields, useNewPassphrase } from './NewPassphrase.js';

export function useEncryptionStatus(enabled = true) {
  return useApiQuery('encryption.status', {}, { staleTime: 10_000, retry: false, enabled });
}

/**
 * The line at the top of the Sync page: encrypted or not, as the account and this device are.
 * `paused` (signed in, 关闭云同步): the server is not asked — no request while sync is off.
 */
export function EncryptionNotice({ paused }: { paused: boolean }) {
  const { t } = useTranslation();
  const status = useEncryptionStatus(!paused);
  if (!paused && status.isPending) return null;
  const s = status.data;
  const key = paused
    ? 'lineSyncOff'
    : !s?.accountEncrypted
      ? 'lineOff'
      : s.reuploadPending
        ? 'linePending'
        : s.unlocked
          ? 'lineOn'
          : 'lineLocked';
  return (
    <p
      className={key === 'lineOn' ? 'sync-e2e sync-e2e-on' : 'sync-e2e'}
      role="note"
      data-testid="sync-e2e"
      data-state={key}
    >
      <span aria-hidden="true">{key === 'lineOn' ? '✓ ' : '⚠ '}</span>
      {t(`syncUi.enc.${key}`)}
    </p>
  );
}

/** Signed in with sync on: turn encryption on, unlock this device, or change the passphrase (issue 19). */
export function EncryptionSection() {
  const { t } = useTranslation();
  const status = useEncryptionStatus();
  // The recovery code outlives the status refetch that follows turning on: shown until dismissed.
  const [code, setCode] = useState<string | null>(null);
  const s = status.data;
  return (
    <section className="sync-card sync-enc" aria-labelledby="sync-enc-h" data-testid="sync-enc">
      <h3 id="sync-enc-h">{t('syncUi.enc.heading')}</h3>
      {code ? <RecoveryCode code={code} onDone={() => setCode(null)} /> : null}
      {status.error ? (
        <p className="error" role="alert">
          {status.error.message}
        </p>
      ) : s ? (
        <EncryptionBody status={s} onRecoveryCode={setCode} />
      ) : null}
    </section>
  );
}

function EncryptionBody({
  status: s,
  onRecoveryCode,
}: {
  status: EncryptionStatus;
  onRecoveryCode: (code: string) => void;
}) {
  const { t } = useTranslation();
  if (s.unlocked && !s.reuploadPending)
    return (
      <>
        <p data-testid="sync-enc-unlocked">{t('syncUi.enc.unlocked', { keyId: s.keyId ?? '' })}</p>
        <details className="sync-enc-change">
          <summary>{t('syncUi.enc.change')}</summary>
          <ChangePassphraseForm />
        </details>
      </>
    );
  if (s.unlocked) return <TurnOnForm resume onRecoveryCode={onRecoveryCode} />;
  if (s.accountEncrypted === null)
    return (
      <p className="muted" data-testid="sync-enc-unknown">
        {t('syncUi.enc.unknown')}
      </p>
    );
  if (s.accountEncrypted) return <UnlockForm />;
  return <TurnOnForm resume={false} onRecoveryCode={onRecoveryCode} />;
}

/** The last `encryption.progress` event of the core (reset when a new run starts). */
function useEncryptionProgress(): [EncryptionProgress | null, () => void] {
  const client = useApiClient();
  const [progress, setProgress] = useState<EncryptionProgress | null>(null);
  useEffect(
    () =>
      client.subscribe((event) => {
        if (event.type === 'encryption.progress')
          setProgress({ phase: event.phase, done: event.done, total: event.total });
      }),
    [client],
  );
  return [progress, () => setProgress(null)];
}

/** The phase the core is in while turning encryption on, with how far it is. */
function progressText(p: EncryptionProgress, t: TFunction): string {
  const key = {
    syncing: 'phaseSyncing',
    publishing: 'phasePublishing',
    uploading: 'phaseUploading',
    removing: 'phaseRemoving',
  }[p.phase];
  return t(`syncUi.enc.${key}`, { done: p.done, total: p.total });
}

function TurnOnForm({ resume, onRecoveryCode }: { resume: boolean; onRecoveryCode: (code: string) => void }) {
  const { t } = useTranslation();
  const on = useSyncMutation('encryption.on');
  const [progress, resetProgress] = useEncryptionProgress();
  const entry = useNewPassphrase();
  const submit = () => {
    // Resuming re-uses the published keyring: the passphrase is checked by the engine, not retyped.
    if (!entry.accept(!resume)) return;
    resetProgress();
    on.mutate(
      { passphrase: entry.value },
      {
        onSuccess: (r) => {
          entry.clear();
          if (r.recoveryCode) onRecoveryCode(r.recoveryCode);
          const unfinished = r.scopes.some((scope) => scope.error);
          showToast(
            unfinished
              ? { tone: 'error', message: { key: 'syncUi.enc.onUnfinishedToast' } }
              : { tone: 'info', message: { key: 'syncUi.enc.onToast' } },
          );
        },
      },
    );
  };
  return (
    <EncryptionForm
      name="on"
      {...(resume ? { submitLabel: t('syncUi.enc.resume') } : {})}
      onSubmit={submit}
      mutation={on}
      {...(progress ? { workingLabel: progressText(progress, t) } : {})}
      progress={progress?.phase === 'uploading' ? progress : undefined}
      problem={entry.problem}
    >
      <p className="muted">{resume ? t('syncUi.enc.resumeHint') : t('syncUi.enc.offHint')}</p>
      {resume ? (
        <PassphraseField
          name="passphrase"
          label={t('syncUi.enc.passphrase')}
          value={entry.value}
          onChange={entry.setValue}
        />
      ) : (
        <>
          <NewPassphraseFields
            entry={entry}
            label={t('syncUi.enc.passphrase')}
            testId="sync-enc-passphrase"
            confirmTestId="sync-enc-confirm"
          />
          <p className="muted">{t('syncUi.enc.minLength', { count: MIN_PASSPHRASE_CHARS })}</p>
        </>
      )}
    </EncryptionForm>
  );
}

function UnlockForm() {
  const { t } = useTranslation();
  const unlock = useSyncMutation('encryption.unlock');
  const name = useId();
  const [withCode, setWithCode] = useState(false);
  const [secret, setSecret] = useState('');
  const submit = () => {
    unlock.mutate(withCode ? { recoveryCode: secret.trim() } : { passphrase: secret }, {
      onSuccess: () => {
        setSecret('');
        showToast({ tone: 'info', message: { key: 'syncUi.enc.unlockedToast' } });
      },
    });
  };
  return (
    <EncryptionForm name="unlock" onSubmit={submit} mutation={unlock} usedCode={withCode}>
      <p className="muted">{t('syncUi.enc.lockedHint')}</p>
      <fieldset className="sync-enc-choice">
        <legend>{t('syncUi.enc.unlockWith')}</legend>
        <label>
          <input type="radio" name={name} checked={!withCode} onChange={() => setWithCode(false)} />{' '}
          {t('syncUi.enc.withPassphrase')}
        </label>
        <label>
          <input
            type="radio"
            name={name}
            checked={withCode}
            onChange={() => setWithCode(true)}
            data-testid="sync-enc-with-code"
          />{' '}
          {t('syncUi.enc.withCode')}
        </label>
      </fieldset>
      <RequiredField
        label={withCode ? t('syncUi.enc.recoveryCode') : t('syncUi.enc.passphrase')}
        type={withCode ? 'text' : 'password'}
        autoComplete={withCode ? 'off' : 'current-password'}
        spellCheck={false}
        value={secret}
        onChange={setSecret}
        testId="sync-enc-secret"
      />
    </EncryptionForm>
  );
}

function ChangePassphraseForm() {
  const { t } = useTranslation();
  const change = useSyncMutation('encryption.changePassphrase');
  const [current, setCurrent] = useState('');
  const entry = useNewPassphrase();
  const submit = () => {
    if (!entry.accept()) return;
    change.mutate(
      { passphrase: current, newPassphrase: entry.value },
      {
        onSuccess: () => {
          setCurrent('');
          entry.clear();
          showToast({ tone: 'info', message: { key: 'syncUi.enc.changedToast' } });
        },
      },
    );
  };
  return (
    <EncryptionForm name="change" onSubmit={submit} mutation={change} problem={entry.problem}>
      <PassphraseField name="current" label={t('syncUi.enc.current')} value={current} onChange={setCurrent} />
      <NewPassphraseFields
        entry={entry}
        label={t('syncUi.enc.newPassphrase')}
        testId="sync-enc-new"
        confirmTestId="sync-enc-new-confirm"
      />
    </EncryptionForm>
  );
}

/**
 * A passphrase the person already has: hidden as typed, and one the password manager may fill.
 * `name` names the field (`sync-enc-NAME`).
 */
function PassphraseField({
  name,
  ...field
}: {
  name: 'passphrase' | 'current';
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <RequiredField type="password" autoComplete="current-password" testId={`sync-enc-${name}`} {...field} />
  );
}

/** The recovery code, once, with a copy button; stays until the person says it is written down. */
function RecoveryCode({ code, onDone }: { code: string; onDone: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  return (
    <div className="sync-banner sync-banner-warn sync-enc-code" role="alert" data-testid="sync-enc-code-box">
      <strong>{t('syncUi.enc.codeTitle')}</strong>
      <p>{t('syncUi.enc.codeHint')}</p>
      <code className="sync-enc-code-text" data-testid="sync-enc-code">
        {code}
      </code>
      <div className="sync-row">
        <button
          type="button"
          onClick={() =>
            navigator.clipboard.writeText(code).then(
              () => setCopied('yes'),
              () => setCopied('failed'),
            )
          }
          data-testid="sync-enc-copy"
        >
          {copied === 'yes' ? t('syncUi.enc.copied') : t('syncUi.enc.copy')}
        </button>
        <button type="button" className="primary" onClick={onDone} data-testid="sync-enc-code-done">
          {t('syncUi.enc.codeDone')}
        </button>
      </div>
      {copied === 'failed' ? <p className="error">{t('syncUi.enc.copyFailed')}</p> : null}
    </div>
  );
}
