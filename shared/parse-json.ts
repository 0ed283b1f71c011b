/**
 * `JSON.parse` for text a person may have written or piped in (a config file, stdin): text that is
 * not JSON becomes the error `notJson` builds from the parser's reason, which names the file or input
 * and says what to do.
 */
export function parseJsonText(text: string, notJson: (reason: string) => Error): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw notJson((err as Error).message);
  }
}
