import { app, session, shell, type WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../transports/http/guard.js';

/**
 * Electron's security checklist, applied to every web contents the app creates: no navigation away
 * from the renderer, no new windows (http(s) links go to the OS browser), no webviews, no
 * permissions, no remote content, a strict CSP.
 */
export function isExternalLink(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' || u.protocol === 'mailto:';
  } catch {
    return false; // not a URL: never opened outside
  }
}

export function hardenWebContents(contents: WebContents, isRendererUrl: (url: string) => boolean): void {
  contents.on('will-navigate', (event, url) => {
    if (isRendererUrl(url)) return;
    event.preventDefault();
    if (isExternalLink(url)) void shell.openExternal(url);
  });
  contents.on('will-redirect', (event, url) => {
    if (!isRendererUrl(url)) event.preventDefault();
  });
  // Sub-frames too (will-navigate covers only the main frame): no frame may load anything else.
  contents.on('will-frame-navigate', (event) => {
    if (!isRendererUrl(event.url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

export function hardenSession(devServerUrl: string | undefined): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  // No remote content: the only http(s)/ws traffic allowed is the Vite dev server during `npm start`.
  ses.webRequest.onBeforeRequest(
    { urls: ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*'] },
    (details, callback) => {
      const dev = devServerUrl ? new URL(devServerUrl) : null;
      let allowed = false;
      if (dev) {
        try {
          allowed = new URL(details.url).host === dev.host;
        } catch {
          allowed = false; // not a URL: refused
        }
      }
      callback({ cancel: !allowed });
    },
  );
  // The packaged page carries the CSP as a meta tag; the dev server's pages get it as a header,
  // loosened only as far as Vite's hot reload needs.
  if (devServerUrl) {
    const dev = new URL(devServerUrl);
    const devCsp = CONTENT_SECURITY_POLICY.replace(
      "script-src 'self'",
      "script-src 'self' 'unsafe-inline'",
    ).replace("connect-src 'self'", `connect-src 'self' ws://${dev.host}`);
    ses.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [devCsp] } });
    });
  }
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (e) => e.preventDefault());
  });
}
