/**
 * RF creditor references (ISO 11649), the payment code printed on a bill and paid through the banks
 * (ΔΙΑΣ): "RF" + two check digits + a reference of 1–21 letters and digits. Moving the first four
 * characters to the end and turning letters into 10–35 gives a number whose remainder mod 97 is 1.
 * One implementation for the bills, the settlements, the bank files and the forms' RF field.
 */

const REFERENCE = /^[0-9A-Z]{1,21}$/;

/** The remainder mod 97 of the number a string of letters and digits stands for (A = 10 … Z = 35). */
function mod97(text: string): number {
  // By character codes, not strings per character: a billing run codes 100,000 bills.
  let remainder = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    remainder = code <= 57 ? (remainder * 10 + code - 48) % 97 : (remainder * 100 + code - 55) % 97;
  }
  return remainder;
}

/** The RF code of a reference: its check digits computed as ISO 11649 says (98 − (ref + "RF00") mod 97). */
export function rfCode(reference: string): string {
  const ref = reference.replace(/\s+/g, '').toUpperCase();
  if (!REFERENCE.test(ref))
    throw new RangeError(`not an RF reference (1 to 21 letters or digits): ${reference}`);
  const check = 98 - mod97(`${ref}RF00`);
  return `RF${String(check).padStart(2, '0')}${ref}`;
}

/** Whether a code (spaces allowed, as printed in groups of four) is a valid RF creditor reference. */
export function isValidRf(code: string): boolean {
  const compact = code.replace(/\s+/g, '').toUpperCase();
  if (!/^RF\d{2}[0-9A-Z]{1,21}$/.test(compact)) return false;
  return mod97(compact.slice(4) + compact.slice(0, 4)) === 1;
}

/** An RF code in groups of four, as printed: "RF18 5390 0754 7034". */
export function formatRf(code: string): string {
  return code.replace(/(.{4})(?=.)/g, '$1 ');
}

/** A reference's body with its check digit appended: mod 10 of the digits weighted 3, 1, 3, … */
function withCheckDigit(body: string): string {
  let weighted = 0;
  for (let i = 0; i < body.length; i++) weighted += (body.charCodeAt(i) - 48) * (i % 2 === 0 ? 3 : 1);
  return `${body}${(10 - (weighted % 10)) % 10}`;
}

/**
 * A bill's reference: the company (3 digits), the bill's id (12 digits) and a check digit of both,
 * so two bills never share one and a mistyped digit is caught even before the RF check. The id is
 * the stored bill's, which is unique, hence the code is too.
 */
export function billRfCode(companyId: number, billId: number): string {
  if (companyId < 1 || companyId > 999 || billId < 1 || billId > 999_999_999_999) {
    throw new Error('company or bill out of the RF reference range');
  }
  return rfCode(withCheckDigit(`${String(companyId).padStart(3, '0')}${String(billId).padStart(12, '0')}`));
}

/**
 * A debt's reference (a charge or an instalment): the company (3), a 1 for "not a bill" (bills'
 * references are 16 digits, these 17), the debt (12) and the check digit.
 */
export function debtRfReference(companyId: number, debtId: number): string {
  return withCheckDigit(`${String(companyId).padStart(3, '0')}1${String(debtId).padStart(12, '0')}`);
}
