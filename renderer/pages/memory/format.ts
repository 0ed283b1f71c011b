import type { z } from 'zod';
import type { ScoreExplanationSchema } from '../../../shared/api/notes.js';
import type { WhyWords } from './row-words.js';

type Why = z.infer<typeof ScoreExplanationSchema>;

/** The hit explanation as one line for the row's tooltip: which terms matched where, and the parts of the score. */
export function explainHit(why: Why, words: WhyWords): string {
  const parts: string[] = [];
  for (const field of ['summary', 'tags', 'body'] as const) {
    const terms = why.matched[field];
    const score = why.parts[field];
    if (terms.length || score)
      parts.push(`${words[field]}: ${terms.join(', ') || '—'} (+${score.toFixed(2)})`);
  }
  if (why.parts.usage) parts.push(`${words.usage} +${why.parts.usage.toFixed(2)}`);
  if (why.parts.proximity) parts.push(`${words.proximity} +${why.parts.proximity.toFixed(2)}`);
  if (why.semantic && why.parts.semantic !== undefined)
    parts.push(`${words.semantic} ${why.semantic.similarity.toFixed(2)} (+${why.parts.semantic.toFixed(3)})`);
  return parts.join(' · ');
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Dates in the person's language; one formatter per locale (creating one per row is slow at 10,000 rows). */
const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** The date alone, for the list's narrow column (the time is in its title). */
export function formatDay(ms: number, locale: string): string {
  if (!ms) return '—';
  let f = dayFormatters.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale === 'zh' ? 'zh-CN' : 'en', { dateStyle: 'medium' });
    dayFormatters.set(locale, f);
  }
  return f.format(ms);
}

export function formatTime(ms: number, locale: string): string {
  if (!ms) return '—';
  let f = formatters.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale === 'zh' ? 'zh-CN' : 'en', {
      dateStyle: 'medium',
      timeStyle: 'short',
    });
    formatters.set(locale, f);
  }
  return f.format(ms);
}
