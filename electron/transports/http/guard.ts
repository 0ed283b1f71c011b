import { timingSafeEqual } from 'node:crypto';

/**
 * Request checks of the web bridge. It listens on loopback only, but any web page the person has
 * open can still send requests to 127.0.0.1: DNS rebinding shows up as a foreign Host header, a
 * cross-site fetch as a foreign Origin, and neither knows the per-run secret. The secret travels
 * only as a request header (shared/web-bridge.ts): no cookie, so nothing for the browser to send
 * to another service on 127.0.0.1, and no Cookie header is ever parsed.
 */

export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function isAllowedHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  return allowedHosts(port).includes(host.toLowerCase());
}

/** Absent Origin is fine (same-origin GETs, curl); a present one must be this bridge's. */
export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return allowedHosts(port).some((h) => origin.toLowerCase() === `http://${h}`);
}

export function secretsEqual(given: string | undefined | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The Content-Security-Policy of every page the bridge serves (the Electron build carries the same as a meta tag). */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // CodeMirror injects its theme as <style> elements.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
