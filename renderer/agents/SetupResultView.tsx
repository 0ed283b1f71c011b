import type { ApiOutput } from '../../shared/api.js';
import { useAgentsStrings } from './strings.js';

/** What one `agents.setup` call changed (or, previewed, would change): each file with its diff, then setup's notes. */
export function SetupResultView(props: { result: ApiOutput<'agents.setup'> }) {
  const { s, f } = useAgentsStrings();
  const changed = props.result.files.filter((x) => x.action !== 'unchanged');
  return (
    <div data-testid="setup-result">
      {changed.length === 0 ? <p>{s.nothingToChange}</p> : null}
      {changed.map((x) => (
        <div key={x.path}>
          <p>{f(s.changed, { file: x.path, action: x.action })}</p>
          {x.diff ? <pre className="diff">{x.diff}</pre> : null}
        </div>
      ))}
      {props.result.notes.map((n) => (
        <p key={n} className="muted">
          {n}
        </p>
      ))}
    </div>
  );
}
