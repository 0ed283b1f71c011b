import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whether a hook answered for another process may still make its lasting changes (session state,
 * usage counts). A warm answer (electron/transports/warm) is computed in a long-running process for
 * a one-shot `memdesk hook` that runs the hook itself (cold) when the warm answer does not come in
 * time: the warm side must then have changed nothing, or a recall would be counted twice. So each
 * hook asks the gate once, before its first change — the warm server asks its caller, who either
 * still waits (and then never runs the hook cold) or has given up; a gate that says yes stays open.
 */
export interface EffectsGate {
  mayStart(): Promise<boolean>;
}

/** The hook was answered too late for its caller: nothing was changed, the caller answers it cold. */
export class EffectsRefused extends Error {
  constructor() {
    super('the caller no longer waits for this answer; nothing was changed');
    this.name = 'EffectsRefused';
  }
}

const current = new AsyncLocalStorage<EffectsGate>();

/** Runs fn with the gate its hooks ask (a cold hook runs with none: always allowed). */
export function withEffectsGate<T>(gate: EffectsGate, fn: () => Promise<T>): Promise<T> {
  return current.run(gate, fn);
}

/** Called before a hook's first lasting change; throws EffectsRefused when its caller gave up. */
export async function beforeEffects(): Promise<void> {
  const gate = current.getStore();
  if (gate && !(await gate.mayStart())) throw new EffectsRefused();
}
