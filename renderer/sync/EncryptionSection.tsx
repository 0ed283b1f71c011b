import { useEffect, useId, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { EncryptionStatus } from '../../shared/api/encryption.js';
import type { EncryptionProgress } from '../../shared/events.js';
import { useApiClient } from '../api/context.js';
import { useApiQuery } from '../api/queries.js';
import type { ApiError } from '../api/errors.js';
import { showToast } from '../state/toast-store.js';
import { useSyncMutation } from './hooks.js';

/** The engine refuses shorter passphrases (electron/sync/crypto/keyring.ts); said here before asking. */
const MIN_PASSPHRASE_CHARS = 8;

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

/** The wrong-passphrase refusal in the page's language; anything else as the core said it. */
function errorText(err: ApiError, t: TFunction, usedCode = false): string {
  const failure = (err.details as { failure?: unknown } | undefined)?.failure;
  if (failure === 'wrong_passphrase')
    return t(usedCode ? 'syncUi.enc.wrongCode' : 'syncUi.enc.wrongPassphrase');
  return err.message;
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

function PassphraseInput({
  label,
  value,
  onChange,
  testId,
  autoComplete,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  testId: string;
  autoComplete: 'new-password' | 'current-password';
}) {
  return (
    <label>
      <span>{label}</span>
      <input
        type="password"
        required
        autoComplete={autoComplete}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
    </label>
  );
}

/** A new passphrase typed twice: the reason it cannot be used yet, or null. */
function newPassphraseProblem(p: string, again: string, t: TFunction): string | null {
  if (p.length < MIN_PASSPHRASE_CHARS) return t('syncUi.enc.tooShort', { count: MIN_PASSPHRASE_CHARS });
  if (p !== again) return t('syncUi.enc.mismatch');
  return null;
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

function progressText(p: EncryptionProgress | null, t: TFunction): string {
  if (!p) return t('syncUi.enc.turningOn');
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
  const [passphrase, setPassphrase] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // Resuming re-uses the published keyring: the passphrase is checked by the engine, not retyped.
    const why = resume ? null : newPassphraseProblem(passphrase, again, t);
    setProblem(why);
    if (why) return;
    resetProgress();
    on.mutate(
      { passphrase },
      {
        onSuccess: (r) => {
          setPassphrase('');
          setAgain('');
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
    <form
      className="sync-enc-form"
      onSubmit={submit}
      aria-label={t('syncUi.enc.turnOn')}
      data-testid="sync-enc-on-form"
    >
      <p className="muted">{resume ? t('syncUi.enc.resumeHint') : t('syncUi.enc.offHint')}</p>
      <PassphraseInput
        label={t('syncUi.enc.passphrase')}
        value={passphrase}
        onChange={setPassphrase}
        testId="sync-enc-passphrase"
        autoComplete={resume ? 'current-password' : 'new-password'}
      />
      {resume ? null : (
        <PassphraseInput
          label={t('syncUi.enc.confirm')}
          value={again}
          onChange={setAgain}
          testId="sync-enc-confirm"
          autoComplete="new-password"
        />
      )}
      {resume ? null : <p className="muted">{t('syncUi.enc.minLength', { count: MIN_PASSPHRASE_CHARS })}</p>}
      <button type="submit" className="primary" disabled={on.isPending} data-testid="sync-enc-on">
        {resume ? t('syncUi.enc.resume') : t('syncUi.enc.turnOn')}
      </button>
      <Working
        pending={on.isPending}
        label={progressText(progress, t)}
        {...(progress?.phase === 'uploading' ? { value: progress } : {})}
      />
      <FormError text={problem ?? (on.error ? errorText(on.error, t) : null)} />
    </form>
  );
}

function UnlockForm() {
  const { t } = useTranslation();
  const unlock = useSyncMutation('encryption.unlock');
  const name = useId();
  const [withCode, setWithCode] = useState(false);
  const [secret, setSecret] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    unlock.mutate(withCode ? { recoveryCode: secret.trim() } : { passphrase: secret }, {
      onSuccess: () => {
        setSecret('');
        showToast({ tone: 'info', message: { key: 'syncUi.enc.unlockedToast' } });
      },
    });
  };
  return (
    <form
      className="sync-enc-form"
      onSubmit={submit}
      aria-label={t('syncUi.enc.unlock')}
      data-testid="sync-enc-unlock-form"
    >
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
      <label>
        <span>{withCode ? t('syncUi.enc.recoveryCode') : t('syncUi.enc.passphrase')}</span>
        <input
          type={withCode ? 'text' : 'password'}
          required
          autoComplete={withCode ? 'off' : 'current-password'}
          spellCheck={false}
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          data-testid="sync-enc-secret"
        />
      </label>
      <button type="submit" className="primary" disabled={unlock.isPending} data-testid="sync-enc-unlock">
        {t('syncUi.enc.unlock')}
      </button>
      <Working pending={unlock.isPending} label={t('syncUi.enc.unlocking')} />
      <FormError text={unlock.error ? errorText(unlock.error, t, withCode) : null} />
    </form>
  );
}

function ChangePassphraseForm() {
  const { t } = useTranslation();
  const change = useSyncMutation('encryption.changePassphrase');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const why = newPassphraseProblem(next, again, t);
    setProblem(why);
    if (why) return;
    change.mutate(
      { passphrase: current, newPassphrase: next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
          setAgain('');
          showToast({ tone: 'info', message: { key: 'syncUi.enc.changedToast' } });
        },
      },
    );
  };
  return (
    <form
      className="sync-enc-form"
      onSubmit={submit}
      aria-label={t('syncUi.enc.change')}
      data-testid="sync-enc-change-form"
    >
      <PassphraseInput
        label={t('syncUi.enc.current')}
        value={current}
        onChange={setCurrent}
        testId="sync-enc-current"
        autoComplete="current-password"
      />
      <PassphraseInput
        label={t('syncUi.enc.newPassphrase')}
        value={next}
        onChange={setNext}
        testId="sync-enc-new"
        autoComplete="new-password"
      />
      <PassphraseInput
        label={t('syncUi.enc.confirm')}
        value={again}
        onChange={setAgain}
        testId="sync-enc-new-confirm"
        autoComplete="new-password"
      />
      <button type="submit" className="primary" disabled={change.isPending} data-testid="sync-enc-change">
        {t('syncUi.enc.change')}
      </button>
      <Working pending={change.isPending} label={t('syncUi.enc.changing')} />
      <FormError text={problem ?? (change.error ? errorText(change.error, t) : null)} />
    </form>
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

function Working({
  pending,
  label,
  value,
}: {
  pending: boolean;
  label: string;
  /** Known amounts (the re-upload): the bar says how far it is. */
  value?: { done: number; total: number };
}) {
  return pending ? (
    <div className="sync-progress" role="status" data-testid="sync-enc-working">
      <div
        className="sync-progress-bar"
        role="progressbar"
        aria-label={label}
        {...(value ? { 'aria-valuemin': 0, 'aria-valuemax': value.total, 'aria-valuenow': value.done } : {})}
      />
      <span data-testid="sync-enc-progress">{label}</span>
    </div>
  ) : null;
}

function FormError({ text }: { text: string | null }) {
  return text ? (
    <p className="error" role="alert" data-testid="sync-enc-error">
      {text}
    </p>
  ) : null;
}
