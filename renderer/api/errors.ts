/** An API call that failed, with the core's error code and its message for people. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isApiError(err: unknown, code?: string): err is ApiError {
  return err instanceof ApiError && (code === undefined || err.code === code);
}

/** Turns whatever a transport gave back into a reply, or an ApiError with a useful message. */
export function errorFromUnknownBody(status: number, body: unknown, rawText: string): ApiError {
  if (body && typeof body === 'object' && 'error' in body) {
    const e = (body as { error: unknown }).error;
    if (e && typeof e === 'object') {
      const { code, message, details } = e as { code?: unknown; message?: unknown; details?: unknown };
      return new ApiError(
        typeof code === 'string' ? code : 'internal',
        typeof message === 'string' ? message : `request failed (${status})`,
        details,
      );
    }
  }
  const text = rawText.trim();
  if (status === 401 || status === 403)
    return new ApiError('refused', text || `the bridge refused the request (${status})`);
  return new ApiError(
    'internal',
    text ? `${text} (HTTP ${status})` : `unexpected answer from the bridge (HTTP ${status})`,
  );
}
