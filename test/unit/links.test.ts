import { describe, expect, it } from 'vitest';
import { linkTargets, WIKI_LINK } from '../../shared/links.js';

/** The one link syntax every part uses (core, cleanup's rewrite, recall, the editor). */
describe('shared/links', () => {
  it('reads [[id]] and [[id|label]] as links to id, trimmed, in order, each once', () => {
    expect(linkTargets('see [[ b ]] and [[a|the label]], again [[b]] and [[a]]')).toEqual(['b', 'a']);
  });

  it('ignores empty, multi-line and unclosed brackets', () => {
    expect(linkTargets('[[ ]] [[a\nb]] [[open [x] no link')).toEqual([]);
    expect(linkTargets('no links at all')).toEqual([]);
  });

  it('gives the label part as group 2 (what a rewrite keeps)', () => {
    expect(
      '[[old|kept label]]'.replace(WIKI_LINK, (_w, id: string, label = '') => `[[${id}-new${label}]]`),
    ).toBe('[[old-new|kept label]]');
  });
});
