import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import type { NoteContent } from '../../shared/note.js';
import { mergeNote, mergeTags, mergeText, mergeTextWithoutBase } from '../../electron/sync/merge/index.js';

// One test per rule of R-SYNC-MERGE (DESIGN.md §7, seed "Lagring och avstämning"), on real-looking notes.

const BODY = [
  '# Deploy checklist',
  '',
  'The staging server lives at staging.example.internal.',
  'Run the migrations before switching traffic.',
  '',
  '## Rollback',
  '',
  'Keep the previous build for 48 hours.',
  'Page the on-call engineer if error rates double.',
  '',
].join('\n');

function note(over: Partial<NoteContent> = {}): NoteContent {
  return { summary: 'How we deploy the API', type: 'project', tags: ['deploy', 'ops'], body: BODY, ...over };
}

/** The body with line `index` (0-based) replaced. */
function withLine(body: string, index: number, text: string): string {
  const lines = body.split('\n');
  lines[index] = text;
  return lines.join('\n');
}

describe('R-SYNC-MERGE: which side wins', () => {
  it('skips a note nobody changed', () => {
    expect(mergeNote(note(), note(), note())).toEqual({
      kind: 'unchanged',
      content: note(),
      baseChanged: false,
    });
  });

  it('copies a change made only on this computer', () => {
    const local = note({ summary: 'How we deploy the API (v2)' });
    expect(mergeNote(note(), local, note())).toEqual({
      kind: 'take-local',
      content: local,
      overridesDelete: false,
    });
  });

  it('copies a change made only in the cloud', () => {
    const cloud = note({ body: withLine(BODY, 7, 'Keep the previous build for 72 hours.') });
    expect(mergeNote(note(), note(), cloud)).toEqual({
      kind: 'take-cloud',
      content: cloud,
      overridesDelete: false,
    });
  });

  it('treats the same change on both sides as clean (nothing to transfer, baseline moves)', () => {
    const both = note({ tags: ['deploy', 'ops', 'api'], body: BODY + 'Tag the release in git.\n' });
    expect(mergeNote(note(), both, { ...both, tags: ['api', 'ops', 'deploy'] })).toEqual({
      kind: 'unchanged',
      content: both,
      baseChanged: true,
    });
  });

  it('copies a note created on one side only', () => {
    const cloud = note();
    expect(mergeNote(null, null, cloud)).toEqual({
      kind: 'take-cloud',
      content: cloud,
      overridesDelete: false,
    });
    expect(mergeNote(null, cloud, null)).toEqual({
      kind: 'take-local',
      content: cloud,
      overridesDelete: false,
    });
  });

  it('propagates a delete made on one side when the other did not edit', () => {
    expect(mergeNote(note(), null, note())).toEqual({
      kind: 'take-local',
      content: null,
      overridesDelete: false,
    });
    expect(mergeNote(note(), note(), null)).toEqual({
      kind: 'take-cloud',
      content: null,
      overridesDelete: false,
    });
  });

  it('agrees when both sides deleted the note', () => {
    expect(mergeNote(note(), null, null)).toEqual({ kind: 'unchanged', content: null, baseChanged: true });
  });
});

describe('R-SYNC-MERGE: both sides changed', () => {
  it('takes the summary from the side that changed it, and the type from the side that changed it', () => {
    const local = note({ summary: 'Deploying the API, step by step' });
    const cloud = note({ type: 'reference' });
    expect(mergeNote(note(), local, cloud)).toEqual({
      kind: 'merged',
      content: { ...note(), summary: 'Deploying the API, step by step', type: 'reference' },
    });
  });

  it('is a summary conflict when both changed the summary differently', () => {
    const local = note({ summary: 'Deploying the API' });
    const cloud = note({ summary: 'API deploy runbook', tags: ['deploy', 'ops', 'runbook'] });
    const result = mergeNote(note(), local, cloud);
    expect(result.kind).toBe('conflict');
    if (result.kind !== 'conflict') return;
    expect(result.reasons).toEqual(['summary']);
    // The draft holds this computer's summary and everything that did merge.
    expect(result.draft).toEqual({
      ...note(),
      summary: 'Deploying the API',
      tags: ['deploy', 'ops', 'runbook'],
    });
  });

  it('is a type conflict when both changed the type differently (untyped counts as a value)', () => {
    const local = note({ type: 'reference' });
    const { type: _dropped, ...untyped } = note();
    const result = mergeNote(note(), local, untyped);
    expect(result.kind === 'conflict' && result.reasons).toEqual(['type']);
  });

  it('merges tags as sets: additions from either side stay, removals from either side go', () => {
    const local = note({ tags: ['deploy', 'api'], summary: 'Deploying the API' }); // removed ops, added api
    const cloud = note({ tags: ['ops', 'deploy', 'runbook'] }); // added runbook
    const result = mergeNote(note(), local, cloud);
    expect(result).toEqual({
      kind: 'merged',
      content: { ...note(), summary: 'Deploying the API', tags: ['deploy', 'api', 'runbook'] },
    });
    expect(mergeTags(['a', 'b', 'c'], ['b', 'c', 'd'], ['a', 'b', 'e'])).toEqual(['b', 'd', 'e']);
  });

  it('collapses tags both sides added in different case to one spelling, whichever side is which', () => {
    expect(mergeTags([], ['Work'], ['work'])).toEqual(['Work']);
    expect(mergeTags([], ['work'], ['Work'])).toEqual(['Work']);
  });

  it('combines body edits that lie apart', () => {
    const local = note({ body: withLine(BODY, 2, 'The staging server lives at staging2.example.internal.') });
    const cloud = note({ body: withLine(BODY, 8, 'Page the on-call engineer if error rates triple.') });
    const result = mergeNote(note(), local, cloud);
    expect(result).toEqual({
      kind: 'merged',
      content: note({
        body: withLine(
          withLine(BODY, 2, 'The staging server lives at staging2.example.internal.'),
          8,
          'Page the on-call engineer if error rates triple.',
        ),
      }),
    });
  });

  it('combines edits separated by a single unchanged line', () => {
    const local = withLine(BODY, 6, 'Ask in #deploys first.');
    const cloud = withLine(BODY, 8, 'Page the on-call engineer if error rates triple.');
    const result = mergeText(BODY, local, cloud);
    expect(result).toEqual({
      clean: true,
      text: withLine(local, 8, 'Page the on-call engineer if error rates triple.'),
    });
  });

  it('is a body conflict when both edit the same line, with a git-style draft', () => {
    const local = note({ body: withLine(BODY, 7, 'Keep the previous build for 72 hours.') });
    const cloud = note({ body: withLine(BODY, 7, 'Keep the previous two builds.') });
    const result = mergeNote(note(), local, cloud);
    expect(result.kind).toBe('conflict');
    if (result.kind !== 'conflict') return;
    expect(result.reasons).toEqual(['body']);
    expect(result.draft.body).toBe(
      [
        '# Deploy checklist',
        '',
        'The staging server lives at staging.example.internal.',
        'Run the migrations before switching traffic.',
        '',
        '## Rollback',
        '',
        '<<<<<<< this computer',
        'Keep the previous build for 72 hours.',
        '||||||| last synced',
        'Keep the previous build for 48 hours.',
        '=======',
        'Keep the previous two builds.',
        '>>>>>>> cloud',
        'Page the on-call engineer if error rates double.',
        '',
      ].join('\n'),
    );
    expect(result.hunks).toEqual([
      {
        markerLine: 8,
        local: 'Keep the previous build for 72 hours.\n',
        base: 'Keep the previous build for 48 hours.\n',
        cloud: 'Keep the previous two builds.\n',
      },
    ]);
  });

  it('is a body conflict when the edits are on adjacent lines (plain diff3 would combine them)', () => {
    const local = withLine(BODY, 7, 'Keep the previous build for 72 hours.');
    const cloud = withLine(BODY, 8, 'Page the on-call engineer if error rates triple.');
    const result = mergeText(BODY, local, cloud);
    expect(result.clean).toBe(false);
    if (result.clean) return;
    expect(result.hunks).toHaveLength(1);
    expect(result.hunks[0]!.local).toBe(
      'Keep the previous build for 72 hours.\nPage the on-call engineer if error rates double.\n',
    );
    expect(result.hunks[0]!.cloud).toBe(
      'Keep the previous build for 48 hours.\nPage the on-call engineer if error rates triple.\n',
    );
  });

  it('is a body conflict when one side inserts a line right next to a line the other side edited', () => {
    const lines = BODY.split('\n');
    const inserted = [...lines.slice(0, 8), 'Check the dashboards.', ...lines.slice(8)].join('\n');
    const edited = withLine(BODY, 7, 'Keep the previous build for 72 hours.');
    expect(mergeText(BODY, inserted, edited).clean).toBe(false);
    expect(mergeText(BODY, edited, inserted).clean).toBe(false);
    // Two lines further away it combines.
    const apart = [...lines.slice(0, 5), 'Check the dashboards.', ...lines.slice(5)].join('\n');
    expect(mergeText(BODY, apart, edited).clean).toBe(true);
  });

  it('is a body conflict when both sides append different lines at the end', () => {
    const result = mergeText(BODY, BODY + 'Tag the release.\n', BODY + 'Announce in #general.\n');
    expect(result.clean).toBe(false);
  });

  it('is a too_large conflict when the merged body is over the plan limit in UTF-8 bytes', () => {
    // 'é' is one UTF-16 unit but two UTF-8 bytes: the limit is in bytes.
    const local = note({ body: BODY + 'é'.repeat(30) + '\n' });
    const cloud = note({ body: withLine(BODY, 0, '# Déploy checklist') });
    const merged = withLine(BODY, 0, '# Déploy checklist') + 'é'.repeat(30) + '\n';
    const bytes = Buffer.byteLength(merged, 'utf8');
    expect(mergeNote(note(), local, cloud, { maxBodyBytes: bytes })).toEqual({
      kind: 'merged',
      content: note({ body: merged }),
    });
    const over = mergeNote(note(), local, cloud, { maxBodyBytes: bytes - 1 });
    expect(over).toEqual({
      kind: 'conflict',
      reasons: ['too_large'],
      draft: note({ body: merged }),
      hunks: [],
    });
    expect(merged.length).toBeLessThan(bytes - 1); // counted in characters it would have fit
  });

  it('is a no_base conflict when both sides exist and differ but there is no baseline copy', () => {
    const local = note({
      body: withLine(BODY, 7, 'Keep the previous build for 72 hours.'),
      tags: ['deploy'],
    });
    const cloud = note({ tags: ['deploy', 'runbook'] });
    const result = mergeNote(null, local, cloud);
    expect(result.kind).toBe('conflict');
    if (result.kind !== 'conflict') return;
    expect(result.reasons).toEqual(['no_base']);
    expect(result.draft.tags).toEqual(['deploy', 'runbook']); // without a base nothing counts as removed
    expect(result.draft.body).toBe(
      withLine(
        BODY,
        7,
        '<<<<<<< this computer\nKeep the previous build for 72 hours.\n=======\nKeep the previous build for 48 hours.\n>>>>>>> cloud',
      ),
    );
    // Identical on both sides without a baseline is not a conflict.
    expect(mergeNote(null, cloud, cloud)).toEqual({ kind: 'unchanged', content: cloud, baseChanged: true });
  });

  it('keeps the edit against a delete, and says the delete was overridden', () => {
    const edited = note({ body: BODY + 'Tag the release in git.\n' });
    expect(mergeNote(note(), edited, null)).toEqual({
      kind: 'take-local',
      content: edited,
      overridesDelete: true,
    });
    expect(mergeNote(note(), null, edited)).toEqual({
      kind: 'take-cloud',
      content: edited,
      overridesDelete: true,
    });
  });

  it('reports a merge that comes out as one side exactly as that side', () => {
    const local = note({ summary: 'Deploying the API', body: BODY + 'Tag the release.\n' });
    const cloud = note({ summary: 'Deploying the API' });
    expect(mergeNote(note(), local, cloud)).toEqual({
      kind: 'take-local',
      content: local,
      overridesDelete: false,
    });
  });

  it('lists every reason when several fields conflict', () => {
    const local = note({ summary: 'A', type: 'user', body: withLine(BODY, 0, '# One') });
    const cloud = note({ summary: 'B', type: 'reference', body: withLine(BODY, 0, '# Two') });
    const result = mergeNote(note(), local, cloud);
    expect(result.kind === 'conflict' && result.reasons).toEqual(['summary', 'type', 'body']);
  });
});

describe('newlines', () => {
  it('normalises CRLF to LF: a CRLF copy is the same content, and merges come out LF', () => {
    const crlf = note({ body: BODY.replace(/\n/g, '\r\n') });
    expect(mergeNote(note(), crlf, note())).toEqual({
      kind: 'unchanged',
      content: note(),
      baseChanged: false,
    });
    const local = note({ body: withLine(BODY, 2, 'The staging server moved.').replace(/\n/g, '\r\n') });
    const cloud = note({ body: withLine(BODY, 8, 'Page the on-call engineer at once.') });
    const result = mergeNote(note(), local, cloud);
    expect(result).toEqual({
      kind: 'merged',
      content: note({
        body: withLine(
          withLine(BODY, 2, 'The staging server moved.'),
          8,
          'Page the on-call engineer at once.',
        ),
      }),
    });
  });

  it('never adds a final newline the sides do not have', () => {
    const base = 'one\ntwo\nthree\nfour';
    expect(mergeText(base, 'ONE\ntwo\nthree\nfour', 'one\ntwo\nthree\nFOUR')).toEqual({
      clean: true,
      text: 'ONE\ntwo\nthree\nFOUR',
    });
  });

  it('never loses a final newline the sides keep', () => {
    expect(mergeText('one\ntwo\nthree\n', 'ONE\ntwo\nthree\n', 'one\ntwo\nTHREE\n')).toEqual({
      clean: true,
      text: 'ONE\ntwo\nTHREE\n',
    });
  });

  it('takes the final newline from the one side that changed it when the other edited elsewhere', () => {
    expect(mergeText('one\ntwo\nthree\n', 'ONE\ntwo\nthree\n', 'one\ntwo\nthree')).toEqual({
      clean: true,
      text: 'ONE\ntwo\nthree',
    });
    expect(mergeText('one\ntwo\nthree', 'ONE\ntwo\nthree', 'one\ntwo\nthree\n')).toEqual({
      clean: true,
      text: 'ONE\ntwo\nthree\n',
    });
  });

  it('is a conflict when one side changes the final newline and the other edits the last line', () => {
    const result = mergeText('one\ntwo\nthree\n', 'one\ntwo\nthree', 'one\ntwo\nTHREE\n');
    expect(result.clean).toBe(false);
    if (result.clean) return;
    expect(result.hunks).toEqual([{ markerLine: 3, local: 'three', base: 'three\n', cloud: 'THREE\n' }]);
    // In the draft every marker still starts a line of its own.
    expect(result.text).toBe(
      'one\ntwo\n<<<<<<< this computer\nthree\n||||||| last synced\nthree\n=======\nTHREE\n>>>>>>> cloud\n',
    );
  });
});

describe('bad input', () => {
  it('refuses a size limit that is not a whole number of bytes, and changes nothing it was given', () => {
    const base = note();
    const local = note({ summary: 'Deploying the API' });
    const cloud = note({ body: BODY + 'More.\n' });
    const before = JSON.stringify([base, local, cloud]);
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      let caught: unknown;
      try {
        mergeNote(base, local, cloud, { maxBodyBytes: bad });
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect((caught as AppError).code).toBe('invalid_input');
      expect((caught as AppError).message).toBe(
        `maxBodyBytes must be a whole number of bytes, 0 or more (got ${String(bad)})`,
      );
    }
    expect(JSON.stringify([base, local, cloud])).toBe(before);
  });

  it('handles empty bodies and bodies that are only newlines', () => {
    expect(mergeText('', '', '')).toEqual({ clean: true, text: '' });
    expect(mergeText('', 'a\n', '')).toEqual({ clean: true, text: 'a\n' });
    expect(mergeText('\n\n', '\n', '\n\n\n').clean).toBe(false);
    expect(mergeTextWithoutBase('', '')).toEqual({ clean: true, text: '' });
  });
});
