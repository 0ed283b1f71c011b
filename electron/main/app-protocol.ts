import { pathToFileURL } from 'node:url';
import { net, protocol } from 'electron';
import { resolveStaticFile } from '../transports/http/static-files.js';

/**
 * The packaged renderer is served from `app://bundle/`, not file://: a file:// page shares its
 * origin with every local file, so anything that got script into it could read files by URL. The
 * handler serves only files inside the renderer directory (the web bridge's path check).
 */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://bundle`;

/** Must run before app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

export function serveAppScheme(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const file = url.host === 'bundle' ? await resolveStaticFile(rendererDir, url.pathname) : null;
    if (!file) return new Response('Not found', { status: 404 });
    return net.fetch(pathToFileURL(file).href);
  });
}

export function isAppUrl(url: string): boolean {
  return url.startsWith(`${APP_ORIGIN}/`);
}
