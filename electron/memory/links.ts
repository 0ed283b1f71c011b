import { linkTargets } from '../../shared/links.js';
import { noteIdProblem } from '../../shared/note-id.js';

/**
 * `[[id]]` links (shared/links.ts), derived from a body at every load and never stored.
 * `[[id|label]]` counts as a link to `id`. Text that is not a valid note id (`[[new:1]]`,
 * `[[ two words ]]`) is not a link.
 */
export function extractLinks(body: string): string[] {
  return linkTargets(body).filter((id) => noteIdProblem(id) === null);
}
