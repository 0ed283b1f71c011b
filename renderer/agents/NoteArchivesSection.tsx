import { useState } from 'react';
import type { ArchiveOutcome, ArchiveRequest } from '../../shared/note-archives.js';
import { useApiClient } from '../api/context.js';
import { useArchiveStrings } from './archive-strings.js';
import { fill } from './strings.js';

/**
 * Export / import a scope's notes as a zip. The same calls in the desktop app (the system's file
 * dialog, chosen in main) and the web demo (a download, the browser's file input): client.archive.
 */
export function NoteArchivesSection(props: { projectOpen: boolean }) {
  const s = useArchiveStrings();
  const client = useApiClient();
  const [scope, setScope] = useState<'project' | 'user'>(props.projectOpen ? 'project' : 'user');
  const [onCollision, setOnCollision] = useState<'skip' | 'keep-both'>('skip');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ArchiveOutcome | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async (request: ArchiveRequest) => {
    setBusy(true);
    setError(null);
    setOutcome(null);
    try {
      setOutcome(await client.archive(request));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-label={s.title} data-testid="note-archives">
      <h3>{s.title}</h3>
      <p className="muted">{s.intro}</p>
      <div className="actions">
        <label>
          {s.scope}{' '}
          <select value={scope} onChange={(e) => setScope(e.target.value as 'project' | 'user')} data-testid="archive-scope">
            {props.projectOpen ? <option value="project">{s.project}</option> : null}
            <option value="user">{s.user}</option>
          </select>
        </label>
        <button type="button" disabled={busy} onClick={() => void run({ op: 'export', scope })} data-testid="archive-export">
          {busy ? s.working : s.export}
        </button>
        <label>
          {s.onCollision}{' '}
          <select
            value={onCollision}
            onChange={(e) => setOnCollision(e.target.value as 'skip' | 'keep-both')}
            data-testid="archive-collision"
          >
            <option value="skip">{s.skip}</option>
            <option value="keep-both">{s.keepBoth}</option>
          </select>
        </label>
        <button
          type="button"
          disabled={busy}
          onClick={() => void run({ op: 'import', scope, onCollision })}
          data-testid="archive-import"
        >
          {busy ? s.working : s.import}
        </button>
      </div>
      <div aria-live="polite" data-testid="archive-outcome">
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
        {outcome?.op === 'cancelled' ? <p className="muted">{s.cancelled}</p> : null}
        {outcome?.op === 'export' ? <p>{fill(s.exported, { notes: outcome.notes, file: outcome.file })}</p> : null}
        {outcome?.op === 'import' ? (
          <>
            <p>
              {fill(s.imported, {
                file: outcome.file,
                imported: outcome.result.imported.length,
                skipped: outcome.result.skipped.length,
                refused: outcome.result.refused.length,
              })}
            </p>
            <ul className="muted">
              {[...outcome.result.skipped, ...outcome.result.refused].map((p) => (
                <li key={p.entry}>
                  <code>{p.entry}</code>: {p.reason}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </section>
  );
}
