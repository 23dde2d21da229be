/**
 * How the hosted pages' scripts show amounts and times, as source text a page puts at the top of
 * its own (nonce'd) script. Plain functions, no globals beyond their names.
 *
 * - `formatMoney(amount, currency)`: an amount as the interface sends it (major units, a JSON
 *   number or decimal string) with `currency = {code, exponent, kind}`, the same text the server's
 *   `formatMoney` (src/platform/money/display.ts) writes on the checkout and in mails: `$25.00`,
 *   `¥1,500`, `1.5 NEAR`. The decimal text is given to Intl, never multiplied as a float, and the
 *   locale is en-US like the server's, so one amount reads the same on every page.
 * - `localTime(iso)`: a moment in the viewer's own time zone and locale (`Nov 24, 2026, 10:30 PM`).
 * - `localizeTimes(root)`: fills every `<time data-local datetime="…">` under `root` with
 *   `localTime`; the ISO text the server wrote stays there for a page without script.
 * - `timeLeft(ms)`: a short countdown, `2 d 3 h`, `3 h 05 min`, `4 min 09 s`, `9 s`.
 */
export const FORMAT_SCRIPT = `
function formatMoney(amount, currency) {
  const text = String(amount);
  if (currency.kind === "fiat") {
    return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.code.toUpperCase(),
      minimumFractionDigits: currency.exponent, maximumFractionDigits: currency.exponent }).format(text);
  }
  return new Intl.NumberFormat("en-US", { minimumFractionDigits: 0, maximumFractionDigits: currency.exponent })
    .format(text) + " " + currency.code.toUpperCase();
}
function localTime(iso) {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
function localizeTimes(root) {
  for (const el of root.querySelectorAll("time[data-local]")) el.textContent = localTime(el.dateTime);
}
function timeLeft(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (d > 0) return d + " d " + h + " h";
  if (h > 0) return h + " h " + two(m) + " min";
  if (m > 0) return m + " min " + two(sec) + " s";
  return sec + " s";
}
`;
