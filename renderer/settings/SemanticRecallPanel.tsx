import { useEffect, useId, useState } from 'react';
import type { FormEvent, InputHTMLAttributes } from 'react';
import type { SemanticSettings, SemanticStatus, SemanticTest } from '../../shared/api/semantic.js';
import { insecureUrlProblem } from '../../shared/secure-url.js';
import { fill } from '../agents/strings.js';
import { FieldError } from '../components/FieldError.js';
import { useApiClient } from '../api/context.js';
import { useApiMutation, useApiQuery } from '../api/queries.js';
import { formatTime } from '../sync/format.js';
import { useSemanticStrings, type SemanticStrings } from './semantic-strings.js';
import './semantic.css';

interface Form {
  enabled: boolean;
  baseUrl: string;
  model: string;
  /** A new key typed in ('' keeps the stored one). */
  apiKey: string;
  removeKey: boolean;
  /** Meaning's share as typed ('' is the default). */
  weight: string;
  /** Whether the share was typed here; if not, the core keeps or drops the stored one. */
  weightEdited: boolean;
}

type FieldErrors = Partial<Record<'baseUrl' | 'model' | 'weight', string>>;

function formOf(s: SemanticSettings): Form {
  return {
    enabled: s.enabled,
    baseUrl: s.baseUrl ?? '',
    model: s.model ?? '',
    apiKey: '',
    removeKey: false,
    weight: s.weight === null ? '' : String(s.weight),
    weightEdited: false,
  };
}

/** The typed share: null for the default, NaN when it is not a number from 0 to 1. */
function weightOf(form: Form): number | null {
  const text = form.weight.trim().replace(',', '.');
  if (!text) return null;
  const n = Number(text);
  return n >= 0 && n <= 1 ? n : Number.NaN;
}

/**
 * Whether saving drops the stored share: it was set for the endpoint and model saved, the form names
 * another, and no share was typed (the core's rule, shown before saving rather than after).
 */
function weightWillReset(form: Form, saved: SemanticSettings | undefined): boolean {
  if (!saved || saved.weight === null || form.weightEdited) return false;
  return (form.baseUrl.trim() || null) !== saved.baseUrl || (form.model.trim() || null) !== saved.model;
}

function urlOf(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** What the form lacks for `need` (a test needs URL and model; a save needs them when turned on). */
function check(form: Form, need: boolean, s: SemanticStrings): FieldErrors {
  const out: FieldErrors = {};
  const text = form.baseUrl.trim();
  const url = text ? urlOf(text) : null;
  if (text && !url) out.baseUrl = s.badUrl;
  // The core refuses it too; said here in the person's language, next to the field.
  else if (url && insecureUrlProblem(url)) out.baseUrl = s.insecureUrl;
  else if (!text && need) out.baseUrl = s.needUrl;
  if (!form.model.trim() && need) out.model = s.needModel;
  if (Number.isNaN(weightOf(form))) out.weight = s.badWeight;
  return out;
}

/**
 * How often the shown status is asked again. Notes are embedded as searches and recalls run — in
 * this app, and in agents' hooks and MCP servers, separate processes that send the app no event —
 * so the panel asks: often while notes wait for their vectors or the endpoint is down, rarely once
 * every note has one, never while semantic recall is off (then only a save changes anything).
 */
const STATUS_POLL_PENDING_MS = 2_000;
const STATUS_POLL_SETTLED_MS = 30_000;

function statusPollMs(st: SemanticStatus | undefined): number | false {
  if (!st?.active) return false;
  return st.embedded < st.notes || st.downSince !== null ? STATUS_POLL_PENDING_MS : STATUS_POLL_SETTLED_MS;
}

/** undefined keeps the stored key, null removes it. */
function keyOf(form: Form): string | null | undefined {
  if (form.apiKey.trim()) return form.apiKey.trim();
  return form.removeKey ? null : undefined;
}

/**
 * Semantic recall's settings (issue 20): the embeddings endpoint, configured like the model for
 * 生成合并建议 — a URL, a model, a key kept outside config files. Saving is explicit; a failed save
 * keeps what was typed; "Test connection" tries the typed values without saving them.
 */
export function SemanticRecallPanel() {
  const { s, lang } = useSemanticStrings();
  const client = useApiClient();
  const id = useId();
  const settings = useApiQuery('semantic.settings', {});
  const status = useApiQuery(
    'semantic.status',
    {},
    { refetchOnMount: 'always', refetchInterval: (query) => statusPollMs(query.state.data) },
  );
  // A mutation: on success the searches shown are asked again (semantic recall changes their hits).
  const configure = useApiMutation('semantic.configure');
  const [form, setForm] = useState<Form | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState<'test' | 'save' | null>(null);
  const [test, setTest] = useState<SemanticTest | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (settings.data && form === null) setForm(formOf(settings.data));
  }, [settings.data, form]);

  if (!form) {
    return settings.error ? (
      <p className="error" role="alert">
        {settings.error.message}
      </p>
    ) : null;
  }

  const edit = (change: Partial<Form>) => {
    setForm({ ...form, ...change });
    // What was said about the values before this edit no longer applies to them.
    setSaved(false);
    setTest(null);
    setSaveError(null);
  };

  /** Shows the form's problems; when there are none, runs `work` with the buttons busy as `kind`. */
  const runChecked = async (kind: 'test' | 'save', errors: FieldErrors, work: () => Promise<void>) => {
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    setBusy(kind);
    try {
      await work();
    } finally {
      setBusy(null);
    }
  };

  const runTest = () => {
    const { weight: _weightError, ...errors } = check(form, true, s);
    setTest(null);
    return runChecked('test', errors, async () => {
      try {
        const key = keyOf(form);
        setTest(
          await client.call('semantic.testConnection', {
            baseUrl: form.baseUrl.trim(),
            model: form.model.trim(),
            ...(key !== undefined ? { apiKey: key } : {}),
          }),
        );
      } catch (err) {
        setTest({ ok: false, problem: 'bad_response', message: (err as Error).message });
      }
    });
  };

  const save = (e: FormEvent) => {
    e.preventDefault();
    setSaveError(null);
    setSaved(false);
    return runChecked('save', check(form, form.enabled, s), async () => {
      try {
        const key = keyOf(form);
        const out = await configure.mutateAsync({
          enabled: form.enabled,
          baseUrl: form.baseUrl.trim() || null,
          model: form.model.trim() || null,
          ...(key !== undefined ? { apiKey: key } : {}),
          ...(form.weightEdited ? { weight: weightOf(form) } : {}),
        });
        setForm(formOf(out));
        setSaved(true);
        await Promise.all([settings.refetch(), status.refetch()]);
      } catch (err) {
        // The form keeps what was typed: nothing is lost on a failed save.
        setSaveError(fill(s.saveFailed, { reason: (err as Error).message.replace(/[.。]\s*$/, '') }));
      }
    });
  };

  const hasKey = settings.data?.hasApiKey ?? false;
  const weightResets = weightWillReset(form, settings.data);
  const st = status.data;
  return (
    <section aria-label={s.title} className="semantic-panel" data-testid="semantic-panel">
      <h3>{s.title}</h3>
      <p className="muted">{s.intro}</p>
      <form onSubmit={(e) => void save(e)} noValidate>
        <Toggle
          label={s.enabled}
          checked={form.enabled}
          onChange={(enabled) => edit({ enabled })}
          testId="semantic-enabled"
        />
        <EndpointField
          name="url"
          label={s.baseUrl}
          value={form.baseUrl}
          onChange={(baseUrl) => edit({ baseUrl })}
          input={{ type: 'url', placeholder: 'http://127.0.0.1:11434/v1' }}
          hint={s.baseUrlHint}
          problem={fieldErrors.baseUrl}
        />
        <EndpointField
          name="model"
          label={s.model}
          value={form.model}
          onChange={(model) => edit({ model })}
          input={{ placeholder: 'nomic-embed-text' }}
          problem={fieldErrors.model}
        />
        <label className="field" htmlFor={`${id}-key`}>
          {s.apiKey}
          <input
            id={`${id}-key`}
            type="password"
            autoComplete="off"
            value={form.apiKey}
            placeholder={hasKey ? s.apiKeyStored : s.apiKeyNone}
            onChange={(e) => edit({ apiKey: e.target.value })}
            data-testid="semantic-key"
          />
        </label>
        {/* A div, not a label around it all: the hint names the model, which would enter the field's name. */}
        <div className="field">
          <label htmlFor={`${id}-weight`}>{s.weight}</label>
          <input
            id={`${id}-weight`}
            inputMode="decimal"
            value={weightResets ? '' : form.weight}
            placeholder={fill(s.weightDefault, { weight: settings.data?.defaultWeight ?? '' })}
            aria-invalid={fieldErrors.weight ? true : undefined}
            aria-describedby={`${id}-weight-hint semantic-weight-error`}
            onChange={(e) => edit({ weight: e.target.value, weightEdited: true })}
            data-testid="semantic-weight"
          />
          <span className="muted" id={`${id}-weight-hint`} data-testid="semantic-weight-hint">
            {weightResets ? s.weightReset : s.weightHint}
          </span>
          <FieldError id="semantic-weight-error" message={fieldErrors.weight} />
        </div>
        {hasKey ? (
          <Toggle
            label={s.removeKey}
            checked={form.removeKey}
            onChange={(removeKey) => edit({ removeKey })}
            testId="semantic-remove-key"
          />
        ) : null}
        <div className="actions">
          <button
            type="button"
            disabled={busy !== null}
            onClick={() => void runTest()}
            data-testid="semantic-test"
          >
            {busy === 'test' ? s.testing : s.test}
          </button>
          <button type="submit" disabled={busy !== null} data-testid="semantic-save">
            {busy === 'save' ? s.saving : s.save}
          </button>
        </div>
        <div aria-live="polite" data-testid="semantic-outcome">
          {test?.ok ? (
            <p data-testid="semantic-test-ok">{fill(s.testOk, { dimensions: test.dimensions })}</p>
          ) : null}
          {test && !test.ok ? (
            <div className="error" role="alert" data-testid="semantic-test-error">
              <p>{s.problem[test.problem]}</p>
              <details>
                <summary>{s.details}</summary>
                <code translate="no">{test.message}</code>
              </details>
            </div>
          ) : null}
          {saveError ? (
            <p className="error" role="alert" data-testid="semantic-save-error">
              {saveError}
            </p>
          ) : null}
          {saved ? <p data-testid="semantic-saved">{s.saved}</p> : null}
        </div>
      </form>
      <div className="semantic-status" data-testid="semantic-status">
        <h4>{s.statusTitle}</h4>
        {st && !st.active ? <p>{s.statusOff}</p> : null}
        {st?.active ? (
          <>
            <p data-testid="semantic-embedded">
              {fill(s.statusEmbedded, { embedded: st.embedded, notes: st.notes })}
            </p>
            <p className="muted">
              {st.updatedAt === null
                ? s.statusNever
                : fill(s.statusUpdated, { time: formatTime(st.updatedAt, lang) ?? '' })}
            </p>
            {st.downSince !== null ? (
              <p className="error" role="status" data-testid="semantic-down">
                {fill(s.statusDown, { time: formatTime(st.downSince, lang) ?? '' })}
              </p>
            ) : null}
          </>
        ) : null}
        {status.error ? <p className="error">{status.error.message}</p> : null}
        <button type="button" onClick={() => void status.refetch()} data-testid="semantic-refresh">
          {s.refresh}
        </button>
      </div>
    </section>
  );
}

/** A checkbox with its words after it. */
/**
 * The endpoint's URL or model, inside its label: the input (a name, not words to translate), then
 * its hint and its problem, which describe it. `name` names its test id and its problem's id.
 */
function EndpointField(props: {
  name: 'url' | 'model';
  label: string;
  value: string;
  onChange: (value: string) => void;
  input: Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'placeholder'>;
  hint?: string;
  problem: string | undefined;
}) {
  const id = useId();
  const problemId = `semantic-${props.name}-error`;
  return (
    <label className="field" htmlFor={id}>
      {props.label}
      <input
        id={id}
        {...props.input}
        translate="no"
        value={props.value}
        aria-invalid={props.problem ? true : undefined}
        aria-describedby={props.hint ? `${id}-hint ${problemId}` : problemId}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={`semantic-${props.name}`}
      />
      {props.hint ? (
        <span className="muted" id={`${id}-hint`}>
          {props.hint}
        </span>
      ) : null}
      <FieldError id={problemId} message={props.problem} />
    </label>
  );
}

function Toggle(props: { label: string; checked: boolean; onChange: (on: boolean) => void; testId: string }) {
  return (
    <label className="semantic-toggle">
      <input
        type="checkbox"
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
        data-testid={props.testId}
      />{' '}
      {props.label}
    </label>
  );
}
