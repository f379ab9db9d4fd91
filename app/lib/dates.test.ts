import {
  addDaysISO,
  addMonthsKey,
  addYearsISO,
  diffDaysISO,
  formatDate,
  formatDateTime,
  formatLocalDateTime,
  formatMonthKey,
  isISODate,
  isMonthKey,
  lastMonthKeys,
  monthKey,
  monthRange,
  parseDateInput,
  parseDateTimeInput,
  todayISO,
} from "./dates";

describe("parseDateInput", () => {
  it.each([
    ["2026-11-22", "2026-11-22"],
    ["22/11/2026", "2026-11-22"],
    ["1/2/2026", "2026-02-01"],
    ["01/02/2026", "2026-02-01"],
    [" 2026-11-22 ", "2026-11-22"],
    ["29/02/2024", "2024-02-29"],
    ["2000-02-29", "2000-02-29"], // divisible by 400
    ["31/12/1999", "1999-12-31"],
    ["0099-01-01", "0099-01-01"],
  ])("%j → %j", (input, expected) => {
    expect(parseDateInput(input)).toBe(expected);
  });

  it.each([
    "",
    "hoy",
    "2026-13-01",
    "2026-00-10",
    "2026-02-30",
    "2025-02-29",
    "1900-02-29", // not a leap year
    "2026-04-31",
    "2026-11-00",
    "31/04/2026",
    "29/02/2025",
    "32/01/2026",
    "00/01/2026",
    "1/13/2026",
    "2026-1-5",
    "2026/11/22",
    "22-11-2026",
    "22/11/26",
    "11/22/2026", // US order is not accepted
    "2026-11-22T10:00:00Z",
    "20261122",
    "0000-01-01",
  ])("rejects %j", (input) => {
    expect(parseDateInput(input)).toBeNull();
  });

  it("rejects non-strings", () => {
    const sinTipo: unknown = undefined;
    expect(parseDateInput(sinTipo as string)).toBeNull();
  });
});

describe("isISODate", () => {
  it("accepts only canonical real dates", () => {
    expect(isISODate("2024-02-29")).toBe(true);
    expect(isISODate("2023-02-29")).toBe(false);
    expect(isISODate("22/11/2026")).toBe(false);
    expect(isISODate(20261122)).toBe(false);
  });
});

describe("todayISO", () => {
  it("is the calendar day in Madrid, not in UTC", () => {
    // 23:30 UTC on 31 Dec is already 1 Jan in Madrid (UTC+1 in winter).
    expect(todayISO("Europe/Madrid", new Date("2025-12-31T23:30:00Z"))).toBe("2026-01-01");
    expect(todayISO("UTC", new Date("2025-12-31T23:30:00Z"))).toBe("2025-12-31");
    // 22:30 UTC in summer is 00:30 the next day in Madrid (UTC+2).
    expect(todayISO("Europe/Madrid", new Date("2026-07-14T22:30:00Z"))).toBe("2026-07-15");
    expect(todayISO("America/Mexico_City", new Date("2026-07-15T03:00:00Z"))).toBe("2026-07-14");
  });

  it("defaults to now in Madrid", () => {
    expect(isISODate(todayISO())).toBe(true);
  });
});

describe("addYearsISO", () => {
  it.each([
    ["2026-11-28", 1, "2027-11-28"],
    ["2028-02-29", 1, "2029-02-28"], // as PostgreSQL's date + interval '1 year'
    ["2028-02-29", 4, "2032-02-29"],
    ["2027-12-31", -1, "2026-12-31"],
  ])("%s + %i años = %s", (iso, years, expected) => {
    expect(addYearsISO(iso, years)).toBe(expected);
  });
});

describe("addDaysISO and diffDaysISO", () => {
  it.each([
    ["2026-11-22", 1, "2026-11-23"],
    ["2026-11-30", 1, "2026-12-01"],
    ["2026-12-31", 1, "2027-01-01"],
    ["2024-02-28", 1, "2024-02-29"],
    ["2025-02-28", 1, "2025-03-01"],
    ["2026-03-29", 1, "2026-03-30"], // DST change in Madrid does not matter
    ["2026-11-22", -365, "2025-11-22"],
    ["2026-01-01", 0, "2026-01-01"],
  ])("%s + %i = %s", (iso, days, expected) => {
    expect(addDaysISO(iso, days)).toBe(expected);
    expect(diffDaysISO(iso, expected)).toBe(days);
  });

  it("throws on bad dates", () => {
    expect(() => addDaysISO("2026-02-30", 1)).toThrow(TypeError);
    expect(() => diffDaysISO("x", "2026-01-01")).toThrow(TypeError);
  });
});

describe("formatting", () => {
  it("formats a date as dd/mm/aaaa", () => {
    expect(formatDate("2026-11-22")).toBe("22/11/2026");
    expect(formatDate("2026-01-05")).toBe("05/01/2026");
    expect(formatDate("2026-11-22", "en-GB")).toBe("22/11/2026");
    expect(formatDate("2026-11-22", "en-US")).toBe("11/22/2026");
  });

  it("formats the date part of a timestamp without shifting it", () => {
    expect(formatDate("2026-11-22T23:30:00.000Z")).toBe("22/11/2026");
  });

  it("throws on bad dates", () => {
    expect(() => formatDate("2026-02-30")).toThrow(TypeError);
  });

  it("formats a remembered date the same, per locale, also after the memory is emptied", () => {
    expect(formatDate("2026-11-22", "en-US")).toBe("11/22/2026");
    expect(formatDate("2026-11-22")).toBe("22/11/2026");
    // More days than it keeps: the first ones are formatted again, the same.
    let dia = "2010-01-01";
    for (let i = 0; i < 6_000; i++) {
      expect(formatDate(dia)).toBe(`${dia.slice(8)}/${dia.slice(5, 7)}/${dia.slice(0, 4)}`);
      dia = addDaysISO(dia, 1);
    }
    expect(formatDate("2010-01-01")).toBe("01/01/2010");
    expect(formatDate("2026-11-22", "en-US")).toBe("11/22/2026");
    expect(() => formatDate("2026-02-30")).toThrow(TypeError);
  });

  it("formats a timestamp in the office's time zone", () => {
    expect(formatDateTime("2026-11-22T13:05:00Z")).toBe("22/11/2026, 14:05");
    expect(formatDateTime(new Date("2026-07-01T22:15:00Z"))).toBe("02/07/2026, 00:15");
    expect(formatDateTime("2026-11-22T13:05:00Z", "es-ES", "UTC")).toBe("22/11/2026, 13:05");
    expect(() => formatDateTime("ayer")).toThrow(TypeError);
  });
});

describe("month keys", () => {
  it("derives the key of a date", () => {
    expect(monthKey("2026-11-22")).toBe("2026-11");
    expect(monthKey("2026-11-22T10:00:00Z")).toBe("2026-11");
    expect(() => monthKey("2026-13-01")).toThrow(TypeError);
  });

  it("validates keys", () => {
    expect(isMonthKey("2026-01")).toBe(true);
    expect(isMonthKey("2026-12")).toBe(true);
    expect(isMonthKey("2026-13")).toBe(false);
    expect(isMonthKey("2026-00")).toBe(false);
    expect(isMonthKey("2026-1")).toBe(false);
    expect(isMonthKey(null)).toBe(false);
  });

  it.each([
    ["2026-11", 1, "2026-12"],
    ["2026-11", 2, "2027-01"],
    ["2026-01", -1, "2025-12"],
    ["2026-01", -13, "2024-12"],
    ["2026-05", 0, "2026-05"],
  ])("%s + %i months = %s", (key, n, expected) => {
    expect(addMonthsKey(key, n)).toBe(expected);
  });

  it("gives the first and last day of a month", () => {
    expect(monthRange("2024-02")).toEqual({ from: "2024-02-01", to: "2024-02-29" });
    expect(monthRange("2025-02")).toEqual({ from: "2025-02-01", to: "2025-02-28" });
    expect(monthRange("2026-12")).toEqual({ from: "2026-12-01", to: "2026-12-31" });
    expect(monthRange("2026-04")).toEqual({ from: "2026-04-01", to: "2026-04-30" });
  });

  it("lists the last 12 months, oldest first", () => {
    const keys = lastMonthKeys(12, "2026-03");
    expect(keys).toHaveLength(12);
    expect(keys[0]).toBe("2025-04");
    expect(keys[11]).toBe("2026-03");
    expect(keys).toContain("2026-01");
    expect(lastMonthKeys(1, "2026-03")).toEqual(["2026-03"]);
  });

  it("formats a month", () => {
    expect(formatMonthKey("2026-11", "es-ES", "long")).toBe("noviembre de 2026");
    expect(formatMonthKey("2026-11")).toMatch(/^nov\.? 2026$/);
  });
});

describe("local date and time (a trip's departure)", () => {
  it("reads what datetime-local posts, with a space, or as typed in Spain; refuses what is not one", () => {
    expect(parseDateTimeInput("2026-11-27T07:30")).toBe("2026-11-27T07:30");
    expect(parseDateTimeInput("2026-11-27 07:30:00")).toBe("2026-11-27T07:30");
    expect(parseDateTimeInput("27/11/2026 7:05")).toBe("2026-11-27T07:05");
    expect(parseDateTimeInput("2026-02-30T08:00")).toBeNull();
    expect(parseDateTimeInput("2026-11-27T24:00")).toBeNull();
    expect(parseDateTimeInput("2026-11-27")).toBeNull();
  });

  it("shows a stored one as its clock says, without a time zone", () => {
    expect(formatLocalDateTime("2026-03-29 02:30:00")).toBe("29/03/2026 02:30");
    expect(formatLocalDateTime("2026-11-27T21:15:00")).toBe("27/11/2026 21:15");
  });
});
