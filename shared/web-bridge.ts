/**
 * How a page signs in to the web bridge (electron/transports/http). The bridge's URL carries the
 * per-run secret in its fragment (`#s=…`, never sent to a server); the page keeps it in
 * sessionStorage, which is per origin and so per port, and sends it on every API request as this
 * header. A header, unlike a cookie, is neither sent to other ports of 127.0.0.1 nor attached by the
 * browser to cross-site requests.
 */
export const BRIDGE_SECRET_HEADER = 'x-memdesk-secret';
export const BRIDGE_SECRET_FRAGMENT = 's';
