/**
 * Failed sign-ins counted per account (the email typed, whether or not it exists) and per
 * address. Past the limit every attempt is refused with the same answer for a while, so guessing
 * is slow and nothing tells a real account from an unknown one. In memory: one process.
 */
const WINDOW_MS = 15 * 60_000;
const LIMITS = { cuenta: 5, ip: 30 } as const;
const failures = new Map<string, number[]>();

function recent(key: string, now: number) {
  const list = (failures.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
  if (list.length) failures.set(key, list);
  else failures.delete(key);
  return list;
}

function keys(email: string, ip: string) {
  return [
    { key: `cuenta:${email.trim().toLowerCase()}`, limit: LIMITS.cuenta },
    { key: `ip:${ip}`, limit: LIMITS.ip },
  ];
}

export function isLocked(email: string, ip: string, now = Date.now()) {
  return keys(email, ip).some(({ key, limit }) => recent(key, now).length >= limit);
}

export function recordFailure(email: string, ip: string, now = Date.now()) {
  for (const { key } of keys(email, ip)) failures.set(key, [...recent(key, now), now]);
}

export function clearFailures(email: string) {
  failures.delete(`cuenta:${email.trim().toLowerCase()}`);
}
