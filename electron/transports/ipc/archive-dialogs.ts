import path from 'node:path';
import type { ApiOutput } from '../../../shared/api.js';
import { AppError } from '../../../shared/errors.js';
import type { InvokeReply } from '../../../shared/ipc-contract.js';
import { ArchiveRequestSchema, exportFileName, type ArchiveOutcome } from '../../../shared/note-archives.js';
import { invokeApi, type ApiHandlers } from '../../api/dispatch.js';
import type { IpcInvokeEventLike } from './bind.js';
import { trustedReply } from './trusted-reply.js';

/**
 * The desktop's export / import of a scope as a zip (shared/note-archives.ts): the page says what,
 * the person says where in the system's file dialog, main calls agents.export / agents.import with
 * that path. The page can never name a path: the request schema is strict. Written against a small
 * dialog port so it runs in plain Node; electron/main passes Electron's dialogs.
 */
export interface ArchiveDialogs {
  /** The save dialog, offering `defaultName`; null when cancelled. */
  chooseSaveFile(defaultName: string): Promise<string | null>;
  /** The open dialog for one .zip; null when cancelled. */
  chooseZipFile(): Promise<string | null>;
}

export interface ArchiveDialogDeps {
  dialogs: ArchiveDialogs;
  /** The full handler table (agents.export / agents.import included), current project's. */
  handlers: () => ApiHandlers;
  isTrustedSender: (event: IpcInvokeEventLike) => boolean;
  now: () => number;
}

/** A dialog's answer as the path to use: absolute (anything else is refused), `.zip` added to a save. */
export function chosenPath(chosen: string, save: boolean): string {
  if (!path.isAbsolute(chosen))
    throw new AppError('refused', `the file dialog answered "${chosen}", which is not an absolute path`);
  return save && !/\.zip$/i.test(chosen) ? `${chosen}.zip` : chosen;
}

export async function handleArchiveRequest(
  deps: ArchiveDialogDeps,
  event: IpcInvokeEventLike,
  raw: unknown,
): Promise<InvokeReply> {
  return trustedReply(deps.isTrustedSender(event), async (): Promise<ArchiveOutcome> => {
    const parsed = ArchiveRequestSchema.safeParse(raw);
    if (!parsed.success)
      throw new AppError(
        'invalid_input',
        `export/import request: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      );
    const request = parsed.data;
    if (request.op === 'export') {
      const chosen = await deps.dialogs.chooseSaveFile(exportFileName(request.scope, deps.now()));
      if (chosen === null) return { op: 'cancelled' };
      const out = chosenPath(chosen, true);
      const done = (await invokeApi(deps.handlers(), 'agents.export', {
        scope: request.scope,
        out,
      })) as ApiOutput<'agents.export'>;
      return { op: 'export', file: done.path, notes: done.notes };
    } else {
      const chosen = await deps.dialogs.chooseZipFile();
      if (chosen === null) return { op: 'cancelled' };
      const file = chosenPath(chosen, false);
      const result = (await invokeApi(deps.handlers(), 'agents.import', {
        file,
        scope: request.scope,
        onCollision: request.onCollision,
      })) as ApiOutput<'agents.import'>;
      return { op: 'import', file, result };
    }
  });
}
