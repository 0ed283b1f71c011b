import { timingSafeEqual } from 'node:crypto';

/**
 * Request checks of the web bridge. It listens on loopback only, but any web page the person has
 * open can still send requests to 127.0.0.1: DNS rebinding shows up as a foreign Host header, a
 * cross-site fetch as a foreign Origin, and neither knows the per-run secret.
 */

export const SECRET_COOKIE = 'memdesk_secret';
export const SECRET_QUERY = 's';

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

export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name) out.set(name, decodeURIComponent(value));
  }
  return out;
}

export function secretsEqual(given: string | undefined | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function secretCookie(secret: string): string {
  return `${SECRET_COOKIE}=${encodeURIComponent(secret)}; HttpOnly; SameSite=Strict; Path=/`;
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
