import { toErrorBody } from '../../../shared/errors.js';
import type { InvokeReply } from '../../../shared/ipc-contract.js';

/**
 * The reply to a call from the renderer: refused when it comes from a frame that is not ours
 * (`answer` is not run), otherwise what `answer` returns, or the error it throws.
 */
export async function trustedReply(trusted: boolean, answer: () => Promise<unknown>): Promise<InvokeReply> {
  if (!trusted) {
    return { ok: false, error: { code: 'refused', message: 'IPC call from an untrusted frame refused.' } };
  }
  try {
    return { ok: true, result: await answer() };
  } catch (err) {
    return { ok: false, ...toErrorBody(err) };
  }
}
