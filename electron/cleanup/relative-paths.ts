import { WIKI_LINK } from '../../shared/links.js';

/**
 * What counts as "a relative path a project note names" for the missing-file finding
 * (documented in docs/cleanup.md):
 *
 * - Text inside fenced code blocks (``` or ~~~) is ignored: commands and code quote paths relative
 *   to somewhere else (`import './x.js'`).
 * - A candidate is a run of characters without whitespace, backticks, quotes, square brackets,
 *   parentheses or angle brackets, with trailing punctuation (. , ; : ! ?) and a trailing line reference
 *   (`:12`, `:12:3`, `#L12`) removed, and a leading `./` dropped.
 * - It must contain a "/" and either end in a known file extension, start with `./` or `../`, or
 *   end with "/" (a directory). So `src/app.ts`, `./scripts/run`, `docs/` count; `and/or`, `TCP/IP`
 *   and a bare `app.ts` (which directory?) do not.
 * - Never: URLs (`scheme://`, `www.`, `mailto:`), absolute paths (`/x`, `~/x`, `C:\x`, `\\host`),
 *   npm scopes (`@scope/pkg`), globs or templates (`* ? { } $ %`), `[[links]]`, or a path that
 *   climbs out of the project root.
 */
export const KNOWN_EXTENSIONS: ReadonlySet<string> = new Set(
  `ts tsx js jsx mjs cjs mts cts json jsonc json5 md mdx markdown txt rst py pyi ipynb go rs java kt kts
  scala swift m mm c h cc cpp cxx hpp hh cs fs vb rb php pl lua r dart ex exs erl clj elm hs ml zig nim
  vue svelte astro css scss sass less html htm xml svg yml yaml toml ini cfg conf env lock sh bash zsh
  fish ps1 bat cmd sql graphql gql proto tf hcl dockerfile gradle cmake mk make csv tsv png jpg jpeg gif
  webp ico pdf wasm`
    .split(/\s+/)
    .filter(Boolean),
);

const CANDIDATE = /[^\s`'"()[\]<>]+/g;
const FENCE = /^\s{0,3}(```|~~~)/;

export function extractRelativePaths(body: string): string[] {
  const found = new Set<string>();
  let inFence: string | null = null;
  for (const line of body.split('\n')) {
    const fence = FENCE.exec(line);
    if (fence) {
      if (inFence === null) inFence = fence[1]!;
      else if (fence[1] === inFence) inFence = null;
      continue;
    }
    if (inFence !== null) continue;
    const withoutLinks = line.replace(WIKI_LINK, ' ');
    for (const match of withoutLinks.matchAll(CANDIDATE)) {
      const path = asRelativePath(match[0]);
      if (path) found.add(path);
    }
  }
  return [...found];
}

/** The normalised relative path a token names, or null when it is not one. */
export function asRelativePath(token: string): string | null {
  let t = token;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t) || /^(www\.|mailto:)/i.test(t)) return null;
  t = t.replace(/[.,;:!?]+$/, '');
  t = t.replace(/(#L\d+(-L?\d+)?|:\d+(:\d+)?)$/, '');
  t = t.replace(/[.,;:!?]+$/, '');
  if (t.includes('://')) return null;
  if (!t.includes('/')) return null;
  if (/^(\/|~|\\|[a-z]:[\\/])/i.test(t)) return null;
  if (t.startsWith('@')) return null;
  if (/[*?{}$%|\\]/.test(t)) return null;
  const explicit = t.startsWith('./') || t.startsWith('../');
  const dir = t.endsWith('/');
  const last = t.split('/').filter(Boolean).pop() ?? '';
  const dot = last.lastIndexOf('.');
  const ext =
    dot > 0 ? last.slice(dot + 1).toLowerCase() : last.toLowerCase() === 'dockerfile' ? 'dockerfile' : '';
  if (!explicit && !dir && !KNOWN_EXTENSIONS.has(ext)) return null;
  const normalised = normaliseRelative(t);
  return normalised;
}

/** Resolves `.` and `..` segments; null when the path climbs out of the root or is empty. */
function normaliseRelative(path: string): string | null {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(seg);
  }
  if (out.length === 0) return null;
  return out.join('/') + (path.endsWith('/') ? '/' : '');
}
