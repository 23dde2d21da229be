/**
 * A card-number field that groups its digits as they are typed (`4242 4242 4242 4242`; American
 * Express `3782 822463 10005`) and names the card's brand beside it (Visa, Mastercard, American
 * Express, Discover), for the pages that take a card themselves (the sandbox checkout; with Stripe
 * its own Element does this). A page loads `CARD_NUMBER_URL` with its nonce and marks the field:
 * `<input data-card-number data-card-brand="ID">`, where ID is the element the brand is written in.
 *
 * Only digits are kept, and at most as many as the brand has; the caret stays after the same digit
 * it was after, and deleting a space deletes the digit beside it. The page's own checks strip the
 * spaces again before they read the number. `String.raw` keeps backslashes; the script has no `${`.
 */
export const CARD_NUMBER_URL = "/assets/card-number.js";

export const CARD_NUMBER_SCRIPT = String.raw`(() => {
"use strict";
// Issuer ranges (the first digits), as the networks publish them.
function brandOf(digits) {
  if (/^4/.test(digits)) return "Visa";
  if (/^3[47]/.test(digits)) return "American Express";
  if (/^5[1-5]/.test(digits)) return "Mastercard";
  const four = Number(digits.slice(0, 4));
  if (digits.length >= 4 && four >= 2221 && four <= 2720) return "Mastercard";
  if (/^(6011|65|64[4-9])/.test(digits)) return "Discover";
  const six = Number(digits.slice(0, 6));
  if (digits.length >= 6 && six >= 622126 && six <= 622925) return "Discover";
  return "";
}
const GROUPS = { "American Express": [4, 6, 5] };
const MAX_DIGITS = { "American Express": 15 };
function grouped(digits, brand) {
  const sizes = GROUPS[brand];
  if (!sizes) return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
  const parts = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(" ");
}
const digitsIn = (text) => text.replace(/\D/g, "");
function attach(field) {
  const label = document.getElementById(field.dataset.cardBrand || "");
  let last = field.value;
  const update = (event) => {
    const value = field.value;
    const focused = document.activeElement === field;
    const caret = focused && field.selectionStart !== null ? field.selectionStart : value.length;
    let digits = digitsIn(value);
    let before = digitsIn(value.slice(0, caret)).length;
    // A space was deleted: delete the digit it stood beside, as if the space were not there.
    const type = event && event.inputType;
    if (digits === digitsIn(last) && value.length < last.length) {
      if (type === "deleteContentBackward" && before > 0) {
        digits = digits.slice(0, before - 1) + digits.slice(before);
        before -= 1;
      } else if (type === "deleteContentForward") {
        digits = digits.slice(0, before) + digits.slice(before + 1);
      }
    }
    const brand = brandOf(digits);
    digits = digits.slice(0, MAX_DIGITS[brand] || 19);
    before = Math.min(before, digits.length);
    const text = grouped(digits, brand);
    if (text !== value) {
      field.value = text;
      if (focused) {
        let position = 0;
        for (let seen = 0; position < text.length && seen < before; position++) if (/\d/.test(text[position])) seen++;
        field.setSelectionRange(position, position);
      }
    }
    last = field.value;
    if (label && label.textContent !== brand) label.textContent = brand;
  };
  field.addEventListener("input", update);
  update(null);
}
for (const field of document.querySelectorAll("input[data-card-number]")) attach(field);
})();
`;
