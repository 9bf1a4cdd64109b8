/** Check digits of the numbers personal data is made of. Pure functions over digit strings. */

/** Luhn (mod 10), as on payment cards, Canadian SINs and Swedish personal numbers. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** IBAN lengths by country (ISO 13616 registry). */
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
};

/** IBANs printed in banks' and standards' documentation as examples. */
const EXAMPLE_IBANS = new Set([
  "DE89370400440532013000",
  "GB82WEST12345698765432",
  "GB29NWBK60161331926819",
  "FR1420041010050500013M02606",
  "NL91ABNA0417164300",
  "ES9121000418450200051332",
  "BE68539007547034",
  "CH9300762011623852957",
  // The IBAN registry's examples for the smaller account formats, which validators' tests copy.
  "NO9386011117947",
  "MT84MALT011000012345MTLCAST001S",
  "CY17002001280000001200527600",
]);

/**
 * An IBAN printed as an example, or one filled with zeros to pass the check digits
 * (`DE00000000000000000066`, `TR610000100000000000000001`): no bank code or account number has
 * ten zeros in a row.
 */
export function isExampleIban(iban: string): boolean {
  const compact = iban.replace(/ /g, "").toUpperCase();
  return EXAMPLE_IBANS.has(compact) || compact.slice(4).includes("0000000000");
}

/** ISO 7064 mod 97-10 over an IBAN (spaces removed): the country's length and a remainder of 1. */
export function ibanValid(iban: string): boolean {
  const compact = iban.replace(/ /g, "").toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(compact)) return false;
  if (IBAN_LENGTHS[compact.slice(0, 2)] !== compact.length) return false;
  return mod97(compact.slice(4) + compact.slice(0, 4)) === 1;
}

/** The remainder mod 97 of a string whose letters count as 10..35. */
function mod97(alnum: string): number {
  let remainder = 0;
  for (const ch of alnum) {
    const code = ch.charCodeAt(0);
    const value = code >= 65 ? String(code - 55) : ch;
    for (const digit of value) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder;
}

/** Payment card: 13-19 digits, Luhn, and the prefix and length of a real network. */
export function cardNetwork(digits: string): string | null {
  if (!luhnValid(digits)) return null;
  const n = digits.length;
  const p2 = Number(digits.slice(0, 2));
  const p3 = Number(digits.slice(0, 3));
  const p4 = Number(digits.slice(0, 4));
  const p6 = Number(digits.slice(0, 6));
  if (digits[0] === "4" && (n === 13 || n === 16 || n === 19)) return "visa";
  if (((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) && n === 16) return "mastercard";
  if ((p2 === 34 || p2 === 37) && n === 15) return "amex";
  if (
    (p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649) || (p6 >= 622126 && p6 <= 622925)) &&
    n >= 16 && n <= 19
  ) {
    return "discover";
  }
  if (p4 >= 3528 && p4 <= 3589 && n >= 16 && n <= 19) return "jcb";
  if ((p2 === 36 || p2 === 38 || (p3 >= 300 && p3 <= 305)) && n >= 14 && n <= 19) return "diners";
  if (p2 === 62 && n >= 16 && n <= 19) return "unionpay";
  return null;
}

/** Card numbers printed in payment providers' documentation for testing. */
const TEST_CARDS = new Set([
  "4111111111111111",
  "4242424242424242",
  "4012888888881881",
  "4000056655665556",
  "5555555555554444",
  "5105105105105100",
  "5200828282828210",
  "378282246310005",
  "371449635398431",
  "378734493671000",
  "6011111111111117",
  "6011000990139424",
  "3530111333300000",
  "3566002020360505",
  "30569309025904",
  "38520000023237",
  "4000000000000002",
  "4000000000009995",
  "2223003122003222",
  "6200000000000005",
]);

export function isTestCard(digits: string): boolean {
  return TEST_CARDS.has(digits);
}

/** US Social Security number: area 001-899 except 666, group and serial non-zero; not the famous samples. */
export function ssnValid(ssn: string): boolean {
  const m = /^(\d{3})-?(\d{2})-?(\d{4})$/.exec(ssn);
  if (!m) return false;
  const [area, group, serial] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (area === 0 || area === 666 || area >= 900 || group === 0 || serial === 0) return false;
  const compact = m[1] + m[2] + m[3];
  return compact !== "123456789" && compact !== "078051120" && compact !== "219099999";
}

/** UK National Insurance number: two allowed letters, six digits, A-D. */
export function ninoValid(nino: string): boolean {
  const compact = nino.replace(/ /g, "").toUpperCase();
  if (!/^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/.test(compact)) return false;
  return !["BG", "GB", "NK", "KN", "TN", "NT", "ZZ"].includes(compact.slice(0, 2));
}

const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";

/** Spanish DNI (8 digits + letter) or NIE (X/Y/Z + 7 digits + letter), letter = number mod 23. */
export function spanishIdValid(id: string): boolean {
  const compact = id.replace(/[-\s]/g, "").toUpperCase();
  let m = /^(\d{8})([A-Z])$/.exec(compact);
  if (m) return DNI_LETTERS[Number(m[1]) % 23] === m[2];
  m = /^([XYZ])(\d{7})([A-Z])$/.exec(compact);
  if (m) return DNI_LETTERS[Number("XYZ".indexOf(m[1]) + m[2]) % 23] === m[3];
  return false;
}

/** Dutch BSN: 9 digits passing the eleven test (weights 9..2, last -1). */
export function bsnValid(bsn: string): boolean {
  if (!/^\d{9}$/.test(bsn) || /^0+$/.test(bsn)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += (9 - i) * Number(bsn[i]);
  sum -= Number(bsn[8]);
  return sum % 11 === 0;
}

/** Swedish personnummer (YYMMDD-NNNN or YYYYMMDD-NNNN): a real date and Luhn over ten digits. */
export function personnummerValid(id: string): boolean {
  const m = /^(?:\d{2})?(\d{2})(\d{2})(\d{2})[-+](\d{4})$/.exec(id);
  if (!m) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  // Coordination numbers add 60 to the day.
  const realDay = day > 60 ? day - 60 : day;
  if (month < 1 || month > 12 || realDay < 1 || realDay > 31) return false;
  return luhnValid(m[1] + m[2] + m[3] + m[4]);
}

/** French NIR (numéro de sécurité sociale): 13 digits (Corsica 2A/2B) + key = 97 - n mod 97. */
export function nirValid(id: string): boolean {
  const compact = id.replace(/\s/g, "").toUpperCase();
  const m = /^([12]\d{2}(?:0[1-9]|1[0-2]|[2-9]\d)(?:\d{2}|2A|2B)\d{6})(\d{2})$/.exec(compact);
  if (!m) return false;
  const body = m[1].replace("2A", "19").replace("2B", "18");
  let remainder = 0;
  for (const d of body) remainder = (remainder * 10 + Number(d)) % 97;
  return 97 - remainder === Number(m[2]);
}

const VERHOEFF_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/** Verhoeff check digit, as on India's Aadhaar. */
export function verhoeffValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let c = 0;
  const reversed = digits.split("").reverse();
  for (let i = 0; i < reversed.length; i++) {
    c = VERHOEFF_D[c][VERHOEFF_P[i % 8][Number(reversed[i])]];
  }
  return c === 0;
}

/** Aadhaar: 12 digits, not starting 0 or 1, Verhoeff. */
export function aadhaarValid(id: string): boolean {
  const compact = id.replace(/[\s-]/g, "");
  return /^[2-9]\d{11}$/.test(compact) && verhoeffValid(compact);
}

/** Canadian SIN: 9 digits, Luhn, not starting 0 or 8. */
export function sinValid(id: string): boolean {
  const compact = id.replace(/[\s-]/g, "");
  return /^[1-79]\d{8}$/.test(compact) && luhnValid(compact);
}
