import { BRIDGE_SECRET_FRAGMENT } from '../../shared/web-bridge.js';

const STORAGE_KEY = 'memdesk-bridge-secret';

export interface SecretPlace {
  location: { hash: string; pathname: string; search: string };
  sessionStorage: Pick<Storage, 'getItem' | 'setItem'>;
  history: Pick<History, 'replaceState'>;
}

/**
 * The web bridge's secret for this page: taken once from the URL's fragment (`#s=…`, which never
 * reaches a server or a Referer) into sessionStorage — per origin, so per bridge port, and gone
 * with the tab — and dropped from the address bar. Later loads of the tab read it back.
 */
export function takeBridgeSecret(
  place: Partial<SecretPlace> = globalThis as Partial<SecretPlace>,
): string | null {
  if (!place.location || !place.sessionStorage || !place.history) return null;
  const params = new URLSearchParams(place.location.hash.replace(/^#/, ''));
  const fromFragment = params.get(BRIDGE_SECRET_FRAGMENT);
  if (fromFragment) {
    place.sessionStorage.setItem(STORAGE_KEY, fromFragment);
    params.delete(BRIDGE_SECRET_FRAGMENT);
    const rest = params.toString();
    place.history.replaceState(
      null,
      '',
      `${place.location.pathname}${place.location.search}${rest ? `#${rest}` : ''}`,
    );
    return fromFragment;
  }
  return place.sessionStorage.getItem(STORAGE_KEY);
}
