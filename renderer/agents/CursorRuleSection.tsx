import { useId, useState } from 'react';
import type { ApiOutput } from '../../shared/api.js';
import { useApiClient } from '../api/context.js';
import { SetupResultView } from './SetupResultView.js';
import { useAgentsStrings, type AgentsStrings } from './strings.js';

type CursorRule = ApiOutput<'agents.connections'>['cursorRules'][number];
type Action = 'preview' | 'write' | 'remove';

/** The select's value for "another folder" (a real root is an absolute path, never this). */
const OTHER = '';

const folderName = (root: string) => root.split(/[\\/]/).filter(Boolean).pop() ?? root;

function stateText(s: AgentsStrings, rule: CursorRule | undefined): string {
  if (!rule) return s.ruleUnknown;
  if (rule.state === 'present') return s.rulePresent;
  return rule.state === 'foreign' ? s.ruleForeign : s.ruleAbsent;
}

/**
 * Cursor's project rule (`memdesk setup cursor --project-rule`): for a project chosen here — the
 * open one, one that has a rule, or any folder typed in — whether the rule is there, and buttons to
 * preview, write (which connects Cursor too: its MCP server keeps the rule current) and remove it
 * (that project's rule alone; Cursor stays connected).
 */
export function CursorRuleSection(props: { rules: CursorRule[]; onChanged: () => Promise<unknown> }) {
  const { s, f } = useAgentsStrings();
  const client = useApiClient();
  const ids = { title: useId(), project: useId(), folder: useId() };
  const { rules } = props;
  const [choice, setChoice] = useState<string>(() => rules[0]?.root ?? OTHER);
  const [folder, setFolder] = useState('');
  const [busy, setBusy] = useState<Action | null>(null);
  const [result, setResult] = useState<ApiOutput<'agents.setup'> | null>(null);
  const [error, setError] = useState<string | null>(null);

  const known = rules.some((r) => r.root === choice);
  const root = known ? choice : folder.trim();
  const rule = rules.find((r) => r.root === root);
  const hasOpen = rules.some((r) => r.open);

  const run = async (action: Action) => {
    setBusy(action);
    setError(null);
    setResult(null);
    try {
      const out = await client.call('agents.setup', {
        harness: 'cursor',
        projectRule: true,
        projectRoot: root,
        dryRun: action === 'preview',
        undo: action === 'remove',
      });
      setResult(out);
      if (action !== 'preview') {
        await props.onChanged();
        // A folder typed in is listed from now on (it has a rule): select it there. A project whose
        // rule was removed may leave the list: it stays in the folder field.
        setChoice(root);
        setFolder(action === 'remove' ? root : '');
      }
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="cursor-rule" aria-labelledby={ids.title} data-testid="cursor-rule">
      <h4 id={ids.title}>{s.ruleTitle}</h4>
      <p className="muted">{s.ruleIntro}</p>
      {!hasOpen ? <p className="muted">{s.ruleNoProject}</p> : null}
      <div className="cursor-rule-fields">
        <label htmlFor={ids.project}>{s.ruleProject}</label>
        <select
          id={ids.project}
          value={known ? choice : OTHER}
          onChange={(e) => {
            setChoice(e.target.value);
            setFolder('');
            setResult(null);
            setError(null);
          }}
          data-testid="cursor-rule-project"
        >
          {rules.map((r) => (
            <option key={r.root} value={r.root}>
              {f(r.open ? s.ruleOpenOption : s.ruleOption, { name: folderName(r.root), root: r.root })}
            </option>
          ))}
          <option value={OTHER}>{s.ruleOther}</option>
        </select>
        {!known ? (
          <>
            <label htmlFor={ids.folder}>{s.ruleFolder}</label>
            <input
              id={ids.folder}
              type="text"
              value={folder}
              spellCheck={false}
              placeholder={s.ruleFolderHint}
              onChange={(e) => setFolder(e.target.value)}
              data-testid="cursor-rule-folder"
            />
          </>
        ) : null}
      </div>
      <p role="status" data-testid="cursor-rule-state" data-state={rule?.state ?? 'unknown'}>
        {root ? f(stateText(s, rule), { file: rule?.file ?? '' }) : s.ruleChoose}
      </p>
      <div className="actions">
        <button type="button" disabled={!root || busy !== null} onClick={() => void run('preview')}>
          {s.preview}
        </button>
        <button
          type="button"
          disabled={!root || busy !== null || rule?.state === 'foreign'}
          onClick={() => void run('write')}
          data-testid="cursor-rule-write"
        >
          {busy === 'write' ? s.working : s.ruleWrite}
        </button>
        <button
          type="button"
          disabled={!root || busy !== null || rule?.state !== 'present'}
          onClick={() => void run('remove')}
          data-testid="cursor-rule-remove"
        >
          {busy === 'remove' ? s.working : s.ruleRemove}
        </button>
      </div>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {result ? <SetupResultView result={result} /> : null}
      <p className="muted">{s.ruleCli}</p>
    </section>
  );
}
