import type { TFunction } from 'i18next';
import { isApiError } from './errors.js';

/**
 * Errors in words from the string tables, never the validator's or the core's English: a field's
 * problem goes next to that field, the rest becomes one sentence chosen by the error's code.
 */
export type FieldErrors = Partial<Record<'summary' | 'type' | 'tags' | 'body' | 'id' | 'scope', string>>;

const FIELDS = new Set(['summary', 'type', 'tags', 'body', 'id', 'scope']);

interface Issue {
  path?: unknown[];
  code?: string;
}

/** The fields an invalid input names (zod issues travel in the error's details), in words. */
export function fieldErrorsOf(err: unknown, t: TFunction): FieldErrors | null {
  if (!isApiError(err)) return null;
  const out: FieldErrors = {};
  if (err.code === 'invalid_input' && Array.isArray(err.details)) {
    for (const issue of err.details as Issue[]) {
      const field = issue.path?.[0];
      if (typeof field !== 'string' || !FIELDS.has(field)) continue;
      const key = field as keyof FieldErrors;
      out[key] ??=
        key === 'summary' && issue.code === 'too_small'
          ? t('fieldErrors.summaryRequired')
          : t('fieldErrors.invalid');
    }
  }
  // The core's own refusals that concern one field of a new note.
  if (err.code === 'conflict' && /already exists/.test(err.message)) out.id = t('fieldErrors.idTaken');
  if (err.code === 'invalid_input' && /\bid\b/.test(err.message) && !out.summary)
    out.id ??= t('fieldErrors.idInvalid');
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * One sentence for an error that belongs to no field. Whether the core's own (English) message is
 * added is up to the language's table (`errorCodes.withDetail`): English keeps it, Chinese does not.
 */
export function describeError(err: unknown, t: TFunction): string {
  const code = isApiError(err) ? err.code : 'internal';
  const sentence = t(`errorCodes.${code}`, { defaultValue: t('errorCodes.internal') });
  const message = err instanceof Error ? err.message : String(err);
  return t('errorCodes.withDetail', { sentence, message });
}

/** Checked before anything is sent: the summary is the one required field. */
export function requiredFieldErrors(fields: { summary: string }, t: TFunction): FieldErrors | null {
  return fields.summary.trim() ? null : { summary: t('fieldErrors.summaryRequired') };
}
