/**
 * Double-submit guard for create forms: each rendered form carries a random `_envio` token, and
 * a second POST with a token already used (double click without JavaScript, a retried request)
 * gets the first one's redirect instead of creating a second record. Kept in memory: the app
 * runs as one process, and a token only matters for a few minutes.
 */
const TTL_MS = 10 * 60_000;
const done = new Map<string, { at: number; result: Promise<Response> }>();

export async function once(token: unknown, run: () => Promise<Response>): Promise<Response> {
  if (typeof token !== "string" || !/^[0-9a-f-]{36}$/.test(token)) return run();
  const now = Date.now();
  for (const [key, entry] of done) if (now - entry.at > TTL_MS) done.delete(key);
  const previous = done.get(token);
  if (previous) return (await previous.result).clone();
  const result = run();
  done.set(token, { at: now, result });
  const response = await result.catch((error) => {
    done.delete(token);
    throw error;
  });
  // Only a success (a redirect) is remembered: a refused submission may be corrected and resent.
  if (response.status < 300 || response.status >= 400) done.delete(token);
  return response.clone();
}
