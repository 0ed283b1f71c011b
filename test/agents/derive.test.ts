import { describe, expect, it } from 'vitest';
import {
  deriveRetainDraft,
  deriveSummary,
  deriveType,
  hashtagsOf,
  retainedContentOf,
} from '../../electron/agents/retain/derive.js';

describe('retain: how an item becomes a note', () => {
  it('summary is the first sentence of the first non-empty line, list markers removed', () => {
    expect(deriveSummary('\n\n- The build uses pnpm. Never npm.\nSecond line')).toBe('The build uses pnpm.');
    expect(deriveSummary('部署在周五冻结。之后只修 bug')).toBe('部署在周五冻结。');
    expect(deriveSummary('v1.2 is the version we ship')).toBe('v1.2 is the version we ship');
  });

  it('long summaries are clipped at a word boundary with an ellipsis', () => {
    const long = 'word '.repeat(60).trim();
    const s = deriveSummary(long);
    expect(Array.from(s).length).toBeLessThanOrEqual(100);
    expect(s.endsWith('…')).toBe(true);
    expect(s).not.toMatch(/\s…$/);
  });

  it('type comes from simple cues, else none', () => {
    expect(deriveType('The user prefers tabs over spaces')).toBe('user');
    expect(deriveType('Never force-push to main')).toBe('feedback');
    expect(deriveType('We decided to use SQLite for the cache')).toBe('project');
    expect(deriveType('Grafana dashboard: https://grafana.example/d/1')).toBe('reference');
    expect(deriveType('Bananas are yellow')).toBeUndefined();
  });

  it('hashtags become tags; the extra tags come first; duplicates removed', () => {
    expect(hashtagsOf('Use #pnpm and #Build-tools (#pnpm).')).toEqual(['pnpm', 'Build-tools', 'pnpm']);
    const draft = deriveRetainDraft({
      content: 'Use #pnpm here',
      context: 'PR #12 review',
      extraTags: ['project:memdesk'],
    });
    expect(draft.tags).toEqual(['project:memdesk', 'pnpm']);
    expect(draft.body).toBe('Use #pnpm here\n\nContext: PR #12 review\n');
  });

  it('the context line is recognised and removed to compare contents', () => {
    const draft = deriveRetainDraft({ content: '  Line one\nLine two  ', context: 'chat\nwith newline' });
    expect(draft.body).toBe('Line one\nLine two\n\nContext: chat with newline\n');
    expect(retainedContentOf(draft.body)).toBe('Line one\nLine two');
    expect(retainedContentOf('Only content\n')).toBe('Only content');
  });
});
