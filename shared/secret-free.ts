/**
 * The message with what could be a credential taken out: a URL's user info and query, an
 * Authorization value, `key=…`-style values, and any long unbroken run of token characters (API
 * keys, JWT parts). File paths stay: they are what a person needs to find the problem. Used by
 * both unexpected-error sinks (electron/memory and renderer/api) before an error is logged.
 */
export function secretFree(message: string): string {
  return message
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, '$1[redacted]@')
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#]*)\?[^\s#]*/gi, '$1?[redacted]')
    .replace(/\b(bearer|basic)\s+\S+/gi, '$1 [redacted]')
    .replace(/\b([a-z_-]*(?:token|key|secret|password|passphrase))(\s*[:=]\s*)[^\s,;]+/gi, '$1$2[redacted]')
    .replace(/[A-Za-z0-9_\-+=]{32,}/g, '[redacted]');
}
