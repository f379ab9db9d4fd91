/**
 * Building an Intl formatter costs far more than using one (tens of microseconds each: a page
 * formats hundreds of dates and amounts, a CSV millions). Each locale + options is built once.
 * Options a caller keeps frozen in a constant (a table's dates and amounts) are found again by
 * the object itself, without building a key on every call; any other object is found by its key
 * and not remembered, so a call with a fresh literal leaves nothing behind.
 */
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateTimeByOptions = new WeakMap<object, Map<string, Intl.DateTimeFormat>>();
const numberByOptions = new WeakMap<object, Map<string, Intl.NumberFormat>>();

function cached<F>(
  byOptions: WeakMap<object, Map<string, F>>,
  byKey: Map<string, F>,
  locale: string,
  options: object,
  make: () => F,
): F {
  const kept = Object.isFrozen(options);
  let perLocale = kept ? byOptions.get(options) : undefined;
  const hit = perLocale?.get(locale);
  if (hit) return hit;
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = byKey.get(key);
  if (!f) byKey.set(key, (f = make()));
  if (kept) {
    if (!perLocale) byOptions.set(options, (perLocale = new Map()));
    perLocale.set(locale, f);
  }
  return f;
}

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached(dateTimeByOptions, dateTimeFormats, locale, options, () => new Intl.DateTimeFormat(locale, options));
}

const NINGUNA: Intl.NumberFormatOptions = Object.freeze({});

export function numberFormat(locale: string, options: Intl.NumberFormatOptions = NINGUNA): Intl.NumberFormat {
  return cached(numberByOptions, numberFormats, locale, options, () => new Intl.NumberFormat(locale, options));
}
