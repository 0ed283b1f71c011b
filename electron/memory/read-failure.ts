import { AppError } from '../../shared/errors.js';
import { readFailureCause } from './read-failure-cause.js';

/**
 * The error for a note file `file` that could not be read: `not_found` only when it is not there;
 * a permission or disk failure is an `io_error` that names its cause (details.cause), so nobody
 * is told a note they can see in the folder does not exist.
 */
export function noteReadError(err: unknown, id: string, file: string, dir: string): AppError {
  const cause = readFailureCause(err);
  if (cause === 'missing') return new AppError('not_found', `no note "${id}" in ${dir}`);
  const why = cause === 'permission' ? 'permission denied' : (err as Error).message;
  return new AppError('io_error', `cannot read the note "${id}" (${file}): ${why}`, { cause });
}
