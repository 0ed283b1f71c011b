import { useEffect, useRef, useState } from 'react';
import type { Finding, MergePlan, MergeResult } from '../../../shared/api/cleanup.js';
import type { NoteDetail } from '../../../shared/api/notes.js';
import { NOTE_TYPES, type NoteType } from '../../../shared/note.js';
import { normalizeTags } from '../../../shared/tags.js';
import { useApiClient } from '../../api/context.js';
import { useApiQuery } from '../../api/queries.js';
import { Dialog, useConfirm } from '../../components/Dialog.js';
import { MarkdownEditor } from '../../components/MarkdownEditor.js';
import { draftStore, sameFields, type DraftFields } from '../../state/draft-store.js';
import { useCleanupStrings } from './strings.js';

function fieldsOf(plan: MergePlan): DraftFields {
  return {
    summary: plan.draft.summary,
    type: plan.draft.type ?? '',
    tags: plan.draft.tags.join(', '),
    body: plan.draft.body,
  };
}

/**
 * The merge editor: the notes side by side, the draft (summary, type, tags, body in CodeMirror),
 * the two draft buttons (生成合并建议 with progress and cancel, 手动合并), and apply with a preview of
 * which notes are deleted and which links are repointed. The draft is kept per finding (draft
 * store) as it is edited: Close or Esc keep it for next time, and a new draft never replaces a
 * hand-edited one without asking.
 */
export function MergeEditor(props: {
  finding: Finding;
  onClose: () => void;
  /** With the merged note's summary (the list may not know it yet). */
  onApplied: (result: MergeResult, summary: string) => void;
}) {
  const { s, f } = useCleanupStrings();
  const client = useApiClient();
  const { finding } = props;
  const model = useApiQuery('cleanup.modelStatus', {});
  const [notes, setNotes] = useState<NoteDetail[] | null>(null);
  const [plan, setPlan] = useState<MergePlan | null>(null);
  const [draft, setDraft] = useState<DraftFields | null>(null);
  const [docKey, setDocKey] = useState(0);
  const [busy, setBusy] = useState<'model' | 'manual' | 'apply' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const replacing = useConfirm((kind: 'model' | 'manual') => void redraft(kind));
  const applying = useConfirm(() => void apply());
  const requestId = useRef<string | null>(null);

  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const details = await Promise.all(
          finding.noteIds.map((id) => client.call('notes.get', { id, scope: finding.scope })),
        );
        const first = await client.call('cleanup.mergePlan', {
          ids: finding.noteIds,
          scope: finding.scope,
          draft: 'manual',
        });
        if (!live) return;
        setNotes(details);
        take(first, draftStore.getState().merges[finding.id]);
      } catch (err) {
        if (live) setError((err as Error).message);
      }
    })();
    return () => {
      live = false;
      if (requestId.current) void client.call('cleanup.cancelDraft', { requestId: requestId.current });
    };
    // The finding identifies the group; it does not change while the editor is open.
  }, [finding.id]);

  /** A new plan; its draft unless a kept hand-edited one is given. */
  function take(p: MergePlan, kept?: DraftFields) {
    setPlan(p);
    setDraft(kept ?? fieldsOf(p));
    setDocKey((k) => k + 1);
  }

  function edit(next: DraftFields) {
    setDraft(next);
    if (plan && !sameFields(next, fieldsOf(plan))) draftStore.getState().putMerge(finding.id, next);
    else draftStore.getState().dropMerge(finding.id);
  }

  /** 生成合并建议 / 手动合并: asks first when the draft holds the person's own edits. */
  function askRedraft(kind: 'model' | 'manual') {
    if (draftStore.getState().merges[finding.id]) replacing.ask(kind);
    else void redraft(kind);
  }

  async function redraft(kind: 'model' | 'manual') {
    setError(null);
    setBusy(kind);
    const id = `merge-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    requestId.current = kind === 'model' ? id : null;
    try {
      draftStore.getState().dropMerge(finding.id);
      take(
        await client.call('cleanup.mergePlan', {
          ids: finding.noteIds,
          scope: finding.scope,
          draft: kind,
          ...(kind === 'model' ? { requestId: id } : {}),
        }),
      );
    } catch (err) {
      setError((err as Error).message);
    } finally {
      requestId.current = null;
      setBusy(null);
    }
  }

  function cancelModel() {
    if (requestId.current) void client.call('cleanup.cancelDraft', { requestId: requestId.current });
  }

  async function apply() {
    if (!plan || !draft) return;
    setError(null);
    setBusy('apply');
    try {
      const result = await client.call('cleanup.mergeApply', {
        ...plan,
        draft: {
          summary: draft.summary,
          ...(draft.type ? { type: draft.type } : {}),
          tags: normalizeTags(draft.tags),
          body: draft.body,
        },
      });
      draftStore.getState().dropMerge(finding.id);
      props.onApplied(result, draft.summary);
    } catch (err) {
      setError((err as Error).message);
      setBusy(null);
    }
  }

  const keep = plan?.keepId ?? '';
  const deleted = plan ? Object.keys(plan.basis).filter((id) => id !== keep) : [];
  const group = new Set(finding.noteIds.map((id) => id.toLowerCase()));
  const repointed = [
    ...new Set(
      (notes ?? [])
        .filter((n) => n.id !== keep)
        .flatMap((n) =>
          n.backlinks
            .filter((b) => b.scope === finding.scope && !group.has(b.id.toLowerCase()))
            .map((b) => b.id),
        ),
    ),
  ];
  const ordered =
    notes && plan
      ? [...notes].sort((a, b) => (a.id === keep ? -1 : b.id === keep ? 1 : a.createdAt - b.createdAt))
      : [];
  const modelReason = model.data && !model.data.available ? (model.data.reason ?? '') : null;

  return (
    <Dialog
      title={f(s.mergeTitle, { count: finding.noteIds.length })}
      wide
      testId="merge-editor"
      onCancel={() => {
        cancelModel();
        props.onClose();
      }}
      actions={
        <>
          <button onClick={props.onClose} data-testid="merge-close">
            {s.close}
          </button>
          <button
            className="primary"
            disabled={!plan || busy !== null || !draft?.summary.trim()}
            onClick={() => applying.ask(true)}
            data-testid="merge-apply"
          >
            {busy === 'apply' ? s.applying : s.apply}
          </button>
        </>
      }
    >
      <div className="merge-editor">
        {/* What applying does, first: visible without scrolling. */}
        {plan ? (
          <div className="merge-preview" data-testid="merge-preview">
            <p>{f(s.preview, { keep, deleted: deleted.join(', ') })}</p>
            <p>{repointed.length ? f(s.repoint, { keep, ids: repointed.join(', ') }) : s.repointNone}</p>
          </div>
        ) : null}
        <h4>{s.originals}</h4>
        <div className="merge-originals" data-testid="merge-originals">
          {ordered.map((n) => (
            <article key={n.id} className="merge-original" data-testid="merge-original">
              <header>
                <code>{n.id}</code> {n.id === keep ? <span className="scope-chip">{s.oldest}</span> : null}
              </header>
              <strong>{n.summary}</strong>
              <div className="muted">
                {n.type ?? ''} {n.tags.join(', ')}
              </div>
              <pre>{n.body}</pre>
            </article>
          ))}
        </div>

        <div className="merge-draft-buttons">
          <button
            onClick={() => askRedraft('model')}
            disabled={busy !== null || modelReason !== null}
            title={modelReason ?? undefined}
            data-testid="draft-model"
          >
            {s.modelDraft}
          </button>
          {busy === 'model' ? (
            <>
              <span className="muted" role="status" data-testid="draft-progress">
                {s.drafting}
              </span>
              <button onClick={cancelModel} data-testid="draft-cancel">
                {s.cancel}
              </button>
            </>
          ) : null}
          <button onClick={() => askRedraft('manual')} disabled={busy !== null} data-testid="draft-manual">
            {s.manualDraft}
          </button>
          {modelReason ? (
            <span className="muted" data-testid="model-reason">
              {modelReason}
            </span>
          ) : null}
        </div>
        {plan?.fallback ? (
          <p className="notice" data-testid="draft-fallback">
            {f(s.fallback, { reason: plan.fallback })}
          </p>
        ) : null}
        {plan?.draftSource === 'model' ? <p className="notice">{s.fromModel}</p> : null}
        {plan?.remarks?.length ? (
          <p className="notice">{f(s.remarks, { remarks: plan.remarks.join('; ') })}</p>
        ) : null}

        <h4>{s.draft}</h4>
        {draft ? (
          <div className="fields">
            <DraftText field="summary" label={s.summary} wide draft={draft} edit={edit} />
            <label className="field">
              <span>{s.type}</span>
              <select
                value={draft.type}
                onChange={(e) => edit({ ...draft, type: e.target.value as NoteType | '' })}
                data-testid="merge-type"
              >
                <option value="">{s.noType}</option>
                {NOTE_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </label>
            <DraftText field="tags" label={s.tags} draft={draft} edit={edit} />
            <div className="field field-wide field-body" data-testid="merge-body">
              <span>{s.body}</span>
              <MarkdownEditor
                docKey={`merge-${docKey}`}
                value={draft.body}
                onChange={(body) => edit({ ...draft, body })}
                onSave={() => applying.ask(true)}
                resolveLink={() => true}
                onOpenLink={() => undefined}
                ariaLabel={s.body}
                openHint=""
                linksVersion="merge"
              />
            </div>
          </div>
        ) : null}

        {error ? (
          <p className="error" role="alert" data-testid="merge-error">
            {error}
          </p>
        ) : null}
      </div>
      {plan
        ? applying.dialog({
            title: s.confirmApplyTitle,
            body: `${f(s.preview, { keep, deleted: deleted.join(', ') })} ${
              repointed.length ? f(s.repoint, { keep, ids: repointed.join(', ') }) : s.repointNone
            }`,
            confirmLabel: s.confirmApply,
          })
        : null}
      {replacing.dialog({
        title: s.replaceDraftTitle,
        body: s.replaceDraftBody,
        confirmLabel: s.replaceDraft,
        danger: true,
      })}
    </Dialog>
  );
}

/** The draft's summary or tags inside its label; `merge-FIELD` is its test id. */
function DraftText(props: {
  field: 'summary' | 'tags';
  label: string;
  wide?: boolean;
  draft: DraftFields;
  edit: (next: DraftFields) => void;
}) {
  const { field, draft } = props;
  return (
    <label className={props.wide ? 'field field-wide' : 'field'}>
      <span>{props.label}</span>
      <input
        value={draft[field]}
        onChange={(e) => props.edit({ ...draft, [field]: e.target.value })}
        data-testid={`merge-${field}`}
      />
    </label>
  );
}
