/**
 * What leaves for Sentry: no cookies, no form fields, no query strings, no headers but the
 * harmless ones, and of the user only the id.
 */
type EventLike = {
  request?: {
    cookies?: unknown;
    data?: unknown;
    headers?: Record<string, string>;
    query_string?: unknown;
    url?: string;
  };
  user?: { id?: string | number } & Record<string, unknown>;
  breadcrumbs?: { category?: string; data?: Record<string, unknown> }[];
};

const KEEP_HEADERS = new Set(["user-agent", "accept", "accept-language", "content-type", "referer"]);

export function scrubEvent<E>(event: E): E {
  const e = event as EventLike;
  if (e.request) {
    delete e.request.cookies;
    delete e.request.data;
    delete e.request.query_string;
    if (e.request.url) e.request.url = e.request.url.split("?")[0];
    if (e.request.headers)
      e.request.headers = Object.fromEntries(
        Object.entries(e.request.headers).filter(([k]) => KEEP_HEADERS.has(k.toLowerCase())),
      );
  }
  if (e.user) e.user = e.user.id !== undefined ? { id: e.user.id } : {};
  for (const crumb of e.breadcrumbs ?? []) if (crumb.data) delete crumb.data.body;
  return event;
}
