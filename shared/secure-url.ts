/**
 * Where plain http:// is allowed: only to this machine. A model endpoint or a sync server anywhere
 * else gets an API key or a sync token sent to it, so it must be https:// (docs/security.md).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127(?:\.\d{1,3}){3}$/.test(host)
  );
}

/** Why `url` may not carry a credential (not http(s), or http:// to another machine), or null. */
export function insecureUrlProblem(url: URL): string | null {
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return null;
  return `"${url.href}" must start with https:// (http:// only for a server on this machine: localhost, 127.0.0.1 or [::1])`;
}
