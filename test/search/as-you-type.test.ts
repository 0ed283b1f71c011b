import { describe, expect, it } from 'vitest';
import { withinOneEdit } from '../../electron/memory/search/as-you-type.js';
import { SearchIndex } from '../../electron/memory/search/index.js';
import { doc } from './helpers.js';

function ids(hits: { id: string }[]): string[] {
  return hits.map((h) => h.id);
}

const index = new SearchIndex([
  doc('deploy-staging', { summary: 'Deploy to staging with the release script', tags: ['deploy'] }),
  doc('deployment-window', { summary: 'Deployments happen on Tuesdays' }),
  doc('pricing', { summary: 'Pricing cards use background fills', tags: ['design'] }),
  doc('debugging', { summary: 'Debugging the payment webhook' }),
]);

describe('find as you type', () => {
  it('matches the word being typed as a prefix: "d", "dep", "deplo" find the deploy notes', () => {
    // Terms are stems: "deploym" can only be heading for "deployment" ("deploy" is indexed as "deploi").
    expect(ids(index.search('deploym'))).toEqual(['deployment-window']);
    for (const q of ['dep', 'deplo']) {
      expect(ids(index.search(q))).toEqual(expect.arrayContaining(['deploy-staging', 'deployment-window']));
      expect(ids(index.search(q))).not.toContain('pricing');
    }
    expect(ids(index.search('d'))).toEqual(expect.arrayContaining(['deploy-staging', 'debugging']));
    expect(ids(index.search('pri'))).toEqual(['pricing']);
  });

  it('matches a finished word (followed by a space) exactly, and ranks exact matches above prefix ones', () => {
    expect(ids(index.search('deb '))).toEqual([]);
    const hits = index.search('staging deploy');
    expect(hits[0]!.id).toBe('deploy-staging');
  });

  it('tolerates one typo in words of five letters or more, not in shorter ones', () => {
    expect(ids(index.search('pricnig cards'))).toEqual(['pricing']);
    expect(ids(index.search('stagign'))).toEqual(['deploy-staging']);
    expect(ids(index.search('cadrs '))).toEqual(['pricing']);
    expect(ids(index.search('cadr '))).toEqual([]);
  });

  it('stays exact when asked (recall and related never expand)', () => {
    expect(ids(index.search('dep', { asYouType: false }))).toEqual([]);
    expect(index.recall('deplo').notes).toEqual([]);
  });

  it('counts one insertion, deletion, substitution or swap as one edit', () => {
    expect(withinOneEdit('deploy', 'deplyo')).toBe(true);
    expect(withinOneEdit('deploy', 'deplo')).toBe(true);
    expect(withinOneEdit('deploy', 'deploys')).toBe(true);
    expect(withinOneEdit('deploy', 'deplay')).toBe(true);
    expect(withinOneEdit('deploy', 'deploy')).toBe(false);
    expect(withinOneEdit('deploy', 'dpleoy')).toBe(false);
    expect(withinOneEdit('deploy', 'dep')).toBe(false);
  });
});
