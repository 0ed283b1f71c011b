import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { NOTE_TYPES, type NoteType, type Scope } from '../../../shared/note.js';

/**
 * The words every row of the note list repeats, looked up once per language: an i18next call per
 * field of each drawn row was the largest part of a keystroke's render while searching
 * (bench/ui/search-as-you-type.ts).
 */
export interface RowWords {
  language: string;
  scope: Record<Scope, string>;
  type: Record<NoteType, string>;
  /** "Type: feedback", the scope badge's title. */
  typeTitle: Record<NoteType, string>;
  conflict: string;
  draft: string;
  whyTitle: string;
  why: WhyWords;
  score(score: string): string;
  filterByTag(tag: string): string;
}

export type WhyWords = Record<'summary' | 'tags' | 'body' | 'usage' | 'proximity' | 'semantic', string>;

export function useRowWords(): RowWords {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  // `t` changes identity with the language; the language is named so the table follows it.
  return useMemo(() => rowWords(t, language), [t, language]);
}

function rowWords(t: TFunction, language: string): RowWords {
  const byType = (word: (type: NoteType) => string) =>
    Object.fromEntries(NOTE_TYPES.map((ty) => [ty, word(ty)])) as Record<NoteType, string>;
  return {
    language,
    scope: { project: t('scope.project'), user: t('scope.user') },
    type: byType((ty) => t(`types.${ty}`)),
    typeTitle: byType((ty) => `${t('note.type')}: ${t(`types.${ty}`)}`),
    conflict: t('note.syncConflictMark'),
    draft: t('note.draftMark'),
    whyTitle: t('list.whyTitle'),
    why: {
      summary: t('why.summary'),
      tags: t('why.tags'),
      body: t('why.body'),
      usage: t('why.usage'),
      proximity: t('why.proximity'),
      semantic: t('why.semantic'),
    },
    score: template(t, 'list.score', 'score'),
    filterByTag: template(t, 'list.filterByTag', 'tag'),
  };
}

/** Private-use character: never in a translation, so it marks where the value goes. */
const SLOT = '\uE000';

/** A string with one `{{name}}` value, translated once and filled per row without i18next. */
function template(t: TFunction, key: string, name: string): (value: string) => string {
  const parts = t(key, { [name]: SLOT }).split(SLOT);
  return (value) => parts.join(value);
}
