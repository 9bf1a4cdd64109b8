/**
 * Check digits against values published in standards and issuers'
 * documentation (not against our own generator), plus one-digit corruptions.
 */
import { assert, assertEquals } from "../support/assert.ts";
import {
  aadhaarValid,
  bsnValid,
  cardNetwork,
  ibanValid,
  isExampleIban,
  luhnValid,
  ninoValid,
  nirValid,
  personnummerValid,
  sinValid,
  spanishIdValid,
  ssnValid,
  verhoeffValid,
} from "../../src/secrets/checksums.ts";

/** Change one digit: every check here must then fail. */
function corrupt(value: string): string {
  const i = value.search(/\d(?=\D*$)/); // the last digit
  return value.slice(0, i) + String((Number(value[i]) + 1) % 10) + value.slice(i + 1);
}

Deno.test("Luhn accepts the published test numbers and rejects a changed digit", () => {
  for (const n of ["4111111111111111", "5555555555554444", "378282246310005", "79927398713"]) {
    assert(luhnValid(n), n);
    assert(!luhnValid(corrupt(n)), corrupt(n));
  }
});

Deno.test("card networks need the right prefix and length as well as Luhn", () => {
  assertEquals(cardNetwork("4111111111111111"), "visa");
  assertEquals(cardNetwork("5555555555554444"), "mastercard");
  assertEquals(cardNetwork("378282246310005"), "amex");
  assertEquals(cardNetwork("6011111111111117"), "discover");
  assertEquals(cardNetwork("79927398713"), null); // Luhn-valid, no network
  assertEquals(cardNetwork("4111111111111112"), null);
});

Deno.test("IBAN mod 97 over the registry's examples, with country lengths", () => {
  for (
    const iban of [
      "GB82 WEST 1234 5698 7654 32",
      "DE89370400440532013000",
      "NL91ABNA0417164300",
      "FR1420041010050500013M02606",
    ]
  ) {
    assert(ibanValid(iban), iban);
    assert(isExampleIban(iban), iban);
    assert(!ibanValid(corrupt(iban)), corrupt(iban));
  }
  assert(!ibanValid("DE8937040044053201300"), "one digit short for DE");
  assert(!ibanValid("XX89370400440532013000"), "unknown country");
});

Deno.test("national ids: SSN rules, NINO prefixes, DNI letter, BSN eleven test", () => {
  assert(ssnValid("536-22-8726"));
  for (
    const bad of [
      "000-12-3456",
      "666-12-3456",
      "912-12-3456",
      "536-00-8726",
      "536-22-0000",
      "123-45-6789",
    ]
  ) {
    assert(!ssnValid(bad), bad);
  }
  assert(ninoValid("AB 12 34 56 C"));
  assert(!ninoValid("GB 12 34 56 C"), "GB is not an allowed prefix");
  assert(!ninoValid("AB 12 34 56 E"), "suffix is A-D");
  assert(spanishIdValid("12345678Z"));
  assert(!spanishIdValid("12345678A"));
  assert(spanishIdValid("X1234567L"));
  assert(bsnValid("111222333"));
  assert(!bsnValid("111222334"));
});

Deno.test("personnummer, NIR, Aadhaar (Verhoeff) and SIN", () => {
  assert(personnummerValid("811218-9876"));
  assert(!personnummerValid("811218-9877"));
  assert(!personnummerValid("811318-9876"), "month 13");
  assert(nirValid("2 55 08 14 168 025 38"));
  assert(!nirValid("2 55 08 14 168 025 39"));
  assert(verhoeffValid("2363"));
  assert(!verhoeffValid("2364"));
  assert(aadhaarValid("4991 1866 5246"));
  assert(!aadhaarValid("4991 1866 5247"));
  assert(!aadhaarValid("1991 1866 5246"), "cannot start with 1");
  assert(luhnValid("046454286"), "the textbook SIN passes Luhn");
  assert(!sinValid("046 454 286"), "but a leading 0 is never issued");
  assert(sinValid("146 454 285"));
  assert(!sinValid("146 454 286"));
});
