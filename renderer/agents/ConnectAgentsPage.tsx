import { useState } from 'react';
import type { ApiOutput } from '../../shared/api.js';
import type { Harness } from '../../shared/api/agents-connect.js';
import { useApiClient } from '../api/context.js';
import { useApiQuery } from '../api/queries.js';
import { PageHeader } from '../components/PageHeader.js';
import { SemanticRecallPanel } from '../settings/SemanticRecallPanel.js';
import { CursorRuleSection } from './CursorRuleSection.js';
import { NoteArchivesSection } from './NoteArchivesSection.js';
import { SetupResultView } from './SetupResultView.js';
import { useAgentsStrings } from './strings.js';
import './agents.css';

type SetupResult = ApiOutput<'agents.setup'>;
type Status = ApiOutput<'agents.connections'>['harnesses'][number];
type CursorRule = ApiOutput<'agents.connections'>['cursorRules'][number];

/**
 * "Connect an agent": which harnesses have Memory Desk's MCP server and hooks in their config, and
 * buttons doing what `memdesk setup <harness> [--dry-run] [--undo]` does. Also what this project's
 * agents see: user notes tagged for other projects are left out of their recall, search and index.
 */
export function ConnectAgentsPage() {
  const { s, f } = useAgentsStrings();
  const client = useApiClient();
  const connections = useApiQuery('agents.connections', {});
  const [busy, setBusy] = useState<Harness | null>(null);
  const [result, setResult] = useState<{ harness: Harness; out: SetupResult } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async (harness: Harness, dryRun: boolean, undo: boolean) => {
    setBusy(harness);
    setError(null);
    try {
      const out = await client.call('agents.setup', { harness, dryRun, undo });
      setResult({ harness, out });
      if (!dryRun) await connections.refetch();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const data = connections.data;
  const hidden = data?.taggedForProjects.filter((t) => t.hiddenHere) ?? [];
  return (
    <div className="page agents-page" data-testid="agents-page">
      <PageHeader title={s.title} intro={s.intro} error={error ?? connections.error?.message} />
      {data ? (
        <section aria-label={s.filterTitle} data-testid="project-filter">
          <h3>{s.filterTitle}</h3>
          <p>{data.projectLabel === null ? s.filterNone : f(s.filterOn, { label: data.projectLabel })}</p>
          {hidden.length > 0 ? (
            <p className="muted">
              {f(s.hidden, {
                count: hidden.reduce((n, t) => n + t.notes.length, 0),
                labels: hidden.map((t) => `project:${t.label}`).join(', '),
              })}
            </p>
          ) : null}
        </section>
      ) : null}
      {data ? <NoteArchivesSection projectOpen={data.projectLabel !== null} /> : null}
      <SemanticRecallPanel />
      <ul className="harnesses">
        {(data?.harnesses ?? []).map((h) => (
          <HarnessRow
            key={h.harness}
            status={h}
            busy={busy === h.harness}
            onRun={(dryRun, undo) => void run(h.harness, dryRun, undo)}
            result={result?.harness === h.harness ? result.out : null}
            cursorRules={data?.cursorRules ?? []}
            onChanged={() => connections.refetch()}
          />
        ))}
      </ul>
    </div>
  );
}

function HarnessRow(props: {
  status: Status;
  busy: boolean;
  onRun: (dryRun: boolean, undo: boolean) => void;
  result: SetupResult | null;
  cursorRules: CursorRule[];
  onChanged: () => Promise<unknown>;
}) {
  const { s, f } = useAgentsStrings();
  const { status: h, busy, result } = props;
  const state = h.mcp && h.hooks ? s.connected : h.mcp || h.hooks ? s.partly : s.notConnected;
  return (
    <li data-testid="harness" data-harness={h.harness} data-connected={h.mcp && h.hooks ? 'yes' : 'no'}>
      <h3>
        {h.name} — <span>{state}</span>
      </h3>
      <p className="muted">
        {s.mcp}: {h.mcp ? '✓' : '✗'} · {s.hooks}: {h.hooks ? '✓' : '✗'} — {h.support}
      </p>
      <details>
        <summary>{s.files}</summary>
        <ul>
          {h.files.map((file) => (
            <li key={file}>
              <code>{file}</code>
            </li>
          ))}
        </ul>
        <p className="muted">{f(s.cli, { harness: h.harness })}</p>
      </details>
      <div className="actions">
        <button type="button" disabled={busy} onClick={() => props.onRun(true, false)}>
          {s.preview}
        </button>
        <button type="button" disabled={busy} onClick={() => props.onRun(false, false)} data-testid="connect">
          {busy ? s.working : s.connect}
        </button>
        <button
          type="button"
          disabled={busy || (!h.mcp && !h.hooks)}
          onClick={() => props.onRun(false, true)}
        >
          {s.disconnect}
        </button>
      </div>
      {result ? <SetupResultView result={result} /> : null}
      {h.harness === 'cursor' ? (
        <CursorRuleSection rules={props.cursorRules} onChanged={props.onChanged} />
      ) : null}
    </li>
  );
}
