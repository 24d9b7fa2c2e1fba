/**
 * curl_getdate as curl reads `-z` dates (lib/parsedate.c, curl/curl at 5c61e168698a): up to six
 * parts in any order — weekday and month names, `HH:MM[:SS]`, day, year, `YYYYMMDD`, a zone
 * name or `+HHMM` — so `dec 12 12:00:00 1999 GMT` and `Sun, 06 Nov 1994 08:49:37 GMT` both read.
 * Date.parse is not used: it reads a different set of strings (and local time).
 */

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DST = -60;

/** curl's zone names and their offsets from GMT in minutes (west is positive). */
const ZONES: Readonly<Record<string, number>> = {
  A: -60,
  ADT: 240 + DST,
  AHST: 600,
  AST: 240,
  B: -120,
  BST: 0 + DST,
  C: -180,
  CAT: 600,
  CCT: -480,
  CDT: 360 + DST,
  CEST: -60 + DST,
  CET: -60,
  CST: 360,
  D: -240,
  E: -300,
  EADT: -600 + DST,
  EAST: -600,
  EDT: 300 + DST,
  EET: -120,
  EST: 300,
  F: -360,
  FST: -60 + DST,
  FWT: -60,
  G: -420,
  GMT: 0,
  GST: -600,
  H: -480,
  HDT: 600 + DST,
  HST: 600,
  I: -540,
  IDLE: -720,
  IDLW: 720,
  JST: -540,
  K: -600,
  L: -660,
  M: -720,
  MDT: 420 + DST,
  MEST: -60 + DST,
  MESZ: -60 + DST,
  MET: -60,
  MEWT: -60,
  MST: 420,
  N: 60,
  NT: 660,
  NZDT: -720 + DST,
  NZST: -720,
  NZT: -720,
  O: 120,
  P: 180,
  PDT: 480 + DST,
  PST: 480,
  Q: 240,
  R: 300,
  S: 360,
  T: 420,
  U: 480,
  UT: 0,
  UTC: 0,
  V: 540,
  W: 600,
  WADT: -420 + DST,
  WAST: -420,
  WAT: 60,
  WET: 0,
  X: 660,
  Y: 720,
  YDT: 540 + DST,
  YST: 540,
  Z: 0,
};

interface When {
  wday: number;
  mon: number;
  mday: number;
  hour: number;
  min: number;
  sec: number;
  year: number;
  /** Seconds to add to reach GMT; -1 when unknown (curl's own sentinel). */
  tzoff: number;
}

function dayOf(name: string): number {
  const lower = name.toLowerCase();
  if (name.length > 3) return WEEKDAYS.indexOf(lower);
  if (name.length === 3) return WEEKDAYS.findIndex((d) => d.slice(0, 3) === lower);
  return -1;
}

function zoneOf(name: string): number {
  // curl compares zone names case-sensitively (strcmp over its upper-case table).
  const minutes = Object.hasOwn(ZONES, name) ? ZONES[name] : undefined;
  return minutes === undefined ? -1 : minutes * 60;
}

/** A name: weekday, month or zone, each taken once. False when it is none of them. */
function readName(name: string, w: When): boolean {
  if (name.length >= 12) return false;
  if (w.wday === -1) {
    w.wday = dayOf(name);
    if (w.wday !== -1) return true;
  }
  if (w.mon === -1) {
    w.mon = name.length === 3 ? MONTHS.indexOf(name.toLowerCase()) : -1;
    if (w.mon !== -1) return true;
  }
  if (w.tzoff === -1 && name.length <= 4) {
    w.tzoff = zoneOf(name);
    if (w.tzoff !== -1) return true;
  }
  return false;
}

/** Seconds since 1970 of a date in GMT, or null when curl_getdate fails (curl returns -1). */
export function curlGetdate(text: string): number | null {
  const w: When = { wday: -1, mon: -1, mday: -1, hour: -1, min: -1, sec: -1, year: -1, tzoff: -1 };
  let next: 'mday' | 'year' = 'mday';
  let i = 0;
  for (let part = 0; i < text.length && part < 6; part++) {
    while (i < text.length && !/[A-Za-z0-9]/.test(text[i] ?? '')) i++;
    const rest = text.slice(i);
    const name = /^[A-Za-z]{1,12}/.exec(rest)?.[0];
    const time = /^(\d\d?):(\d\d?)(?::(\d\d?))?/.exec(rest);
    if (name !== undefined) {
      if (!readName(name, w)) return null;
      i += name.length;
    } else if (
      w.sec === -1 &&
      time &&
      Number(time[1]) < 24 &&
      Number(time[2]) < 60 &&
      Number(time[3] ?? 0) <= 60
    ) {
      w.hour = Number(time[1]);
      w.min = Number(time[2]);
      w.sec = Number(time[3] ?? 0);
      i += time[0].length;
    } else if (/^\d/.test(rest)) {
      const digits = /^\d+/.exec(rest)?.[0] ?? '';
      if (digits.length > 8) return null;
      const val = Number(digits);
      const sign = i > 0 ? text[i - 1] : '';
      let found = false;
      if (w.tzoff === -1 && digits.length === 4 && val <= 1400 && (sign === '+' || sign === '-')) {
        const off = (Math.floor(val / 100) * 60 + (val % 100)) * 60;
        w.tzoff = sign === '+' ? -off : off;
        found = true;
      } else if (digits.length === 8 && w.year === -1 && w.mon === -1 && w.mday === -1) {
        w.year = Math.floor(val / 10000);
        w.mon = Math.floor((val % 10000) / 100) - 1;
        w.mday = val % 100;
        found = true;
      }
      if (!found && next === 'mday' && w.mday === -1) {
        if (val > 0 && val < 32) {
          w.mday = val;
          found = true;
        }
        next = 'year';
      }
      if (!found && next === 'year' && w.year === -1) {
        w.year = val < 100 ? val + (val > 70 ? 1900 : 2000) : val;
        found = true;
        if (w.mday === -1) next = 'mday';
      }
      if (!found) return null;
      i += digits.length;
    }
  }
  if (w.sec === -1) w.sec = w.min = w.hour = 0;
  if (w.mday === -1 || w.mon === -1 || w.year === -1 || w.year < 1583) return null;
  if (w.mday > 31 || w.mon > 11 || w.mon < 0 || w.hour > 23 || w.min > 59 || w.sec > 60)
    return null;
  // Day arithmetic as curl's time2epoch does it (no check that the day exists in the month).
  const cumulative = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
  const y = w.year - (w.mon <= 1 ? 1 : 0);
  const leapDays = Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400) - 477;
  const days = (w.year - 1970) * 365 + leapDays + (cumulative[w.mon] ?? 0) + w.mday - 1;
  const seconds = ((days * 24 + w.hour) * 60 + w.min) * 60 + w.sec + (w.tzoff === -1 ? 0 : w.tzoff);
  // -1 is curl's failure value: a date that lands on it is moved one second on, as curl does.
  return seconds === -1 ? 0 : seconds;
}

/** An HTTP date as curl writes it in If-Modified-Since: `Sun, 12 Dec 1999 12:00:00 GMT`. */
export function httpDate(seconds: number): string {
  return new Date(seconds * 1000).toUTCString();
}
