import { createHash } from 'node:crypto';
import { Decimal, type MydataMappings, moneyString } from '@protocol/contracts';

/**
 * A document as myDATA needs it, whatever issued it: a finance document today, a water bill (a
 * document of a water-bill series) from billing later. A source fills this in; the builder below
 * turns it into AADE's codes with the company's mappings.
 */
export interface MydataSourceDocument {
  documentId: number;
  issuer: { vatNumber: string; branch: number };
  /** Null for retail receipts (11.x), which name no customer. A foreign one carries its address. */
  counterpart: {
    vatNumber: string;
    country: string;
    name: string | null;
    address?: { street: string | null; postalCode: string | null; city: string | null };
  } | null;
  series: string;
  aa: string;
  issueDate: string;
  invoiceType: string;
  /** The MARK of the document a credit note corrects (5.1). */
  correlatedMark: string | null;
  /** myDATA's PaymentMethodType (1–8), after the company's payment-method mapping. */
  paymentMethod: number;
  lines: {
    /** A service's code, for its own income classification. */
    serviceCode: string | null;
    /** The service's account code, for the account's income classification. */
    accountCode?: string | null;
    /** A water bill's charge kind, for the kind's income classification. */
    charge?: string | null;
    net: string;
    vatPercent: string;
    vat: string;
  }[];
  /** Document taxes by finance kind (1 tax, 2 stamp, 3 withholding, 4 recycling, 5/6 interest). */
  taxes: { kind: number; percent: string | null; amount: string }[];
  payable: string;
}

/** myDATA's tax type (TaxTotalsType.taxType) of a finance tax kind. */
const TAX_TYPE: Record<number, 1 | 2 | 3 | 4> = { 1: 3, 2: 4, 3: 1, 4: 2, 5: 3, 6: 3 };

/**
 * The invoice's UID as AADE defines it: SHA-1, in upper-case hex, of the issuer's ΑΦΜ, the issue
 * date, the branch, the invoice type, the series and the number joined with '-'.
 */
export function invoiceUid(
  doc: Pick<MydataSourceDocument, 'issuer' | 'issueDate' | 'invoiceType' | 'series' | 'aa'>,
) {
  const text = [
    doc.issuer.vatNumber,
    doc.issueDate,
    doc.issuer.branch,
    doc.invoiceType,
    doc.series,
    doc.aa,
  ].join('-');
  return createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();
}

const escapeXml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );
const el = (name: string, value: string | number) => `<${name}>${escapeXml(String(value))}</${name}>`;
const same = (a: string, b: string) => new Decimal(a).eq(b);

function vatCategoryOf(mappings: MydataMappings, percent: string): number | null {
  return mappings.vatCategories.find((row) => same(row.percent, percent))?.category ?? null;
}

/**
 * A line's income classification: its charge kind's (water bills) or its service's, else its
 * account's (longest code), else its invoice type's.
 */
function classificationOf(
  mappings: MydataMappings,
  invoiceType: string,
  { serviceCode, accountCode, charge }: MydataSourceDocument['lines'][number],
) {
  const byCharge = charge
    ? mappings.chargeClassifications?.find((row) => row.charge === charge && row.invoiceType === invoiceType)
    : undefined;
  if (byCharge) return byCharge;
  const byAccount = accountCode
    ? (mappings.accountClassifications ?? [])
        .filter((row) => accountCode === row.accountCode || accountCode.startsWith(`${row.accountCode}.`))
        .sort((a, b) => b.accountCode.length - a.accountCode.length)[0]
    : undefined;
  return (
    (serviceCode
      ? mappings.serviceClassifications.find((row) => row.serviceCode === serviceCode)
      : undefined) ??
    byAccount ??
    mappings.classifications.find((row) => row.invoiceType === invoiceType) ??
    null
  );
}

function taxCategoryOf(mappings: MydataMappings, tax: MydataSourceDocument['taxes'][number]): number | null {
  const rows = mappings.taxCodes.filter((row) => row.kind === tax.kind);
  const exact =
    tax.percent === null
      ? undefined
      : rows.find((row) => row.percent !== null && same(row.percent, tax.percent ?? '0'));
  return (exact ?? rows.find((row) => row.percent === null))?.category ?? null;
}

function party(p: {
  vatNumber: string;
  country: string;
  branch: number;
  name?: string | null;
  address?: { street: string | null; postalCode: string | null; city: string | null };
}) {
  // AADE refuses a Greek counterpart's name and address (it knows them from the ΑΦΜ); a foreign
  // one needs both. Missing postal code or city are left out, so the XSD names what is missing.
  const foreign = p.country !== 'GR';
  const name = foreign && p.name ? el('name', p.name.slice(0, 200)) : '';
  const a = p.address;
  const address =
    foreign && a
      ? `<address>${a.street ? el('street', a.street.slice(0, 150)) : ''}${a.postalCode ? el('postalCode', a.postalCode) : ''}${a.city ? el('city', a.city.slice(0, 150)) : ''}</address>`
      : '';
  return `${el('vatNumber', p.vatNumber)}${el('country', p.country)}${el('branch', p.branch)}${name}${address}`;
}

/**
 * The `InvoicesDoc` of one or more documents (InvoicesDoc-v2.0.1.xsd). Codes missing from the
 * mappings are left out, so the XSD (or AADE) names what is missing instead of a guess being sent.
 */
export function buildInvoicesDoc(docs: readonly MydataSourceDocument[], mappings: MydataMappings): string {
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<InvoicesDoc xmlns="http://www.aade.gr/myDATA/invoice/v1.0" xmlns:icls="https://www.aade.gr/myDATA/incomeClassificaton/v1.0" xmlns:ecls="https://www.aade.gr/myDATA/expensesClassificaton/v1.0">',
  ];
  for (const doc of docs) parts.push(invoiceXml(doc, mappings));
  parts.push('</InvoicesDoc>');
  return parts.join('');
}

function invoiceXml(doc: MydataSourceDocument, mappings: MydataMappings): string {
  const out: string[] = ['<invoice>'];
  out.push(`<issuer>${party({ ...doc.issuer, country: 'GR' })}</issuer>`);
  if (doc.counterpart) out.push(`<counterpart>${party({ ...doc.counterpart, branch: 0 })}</counterpart>`);
  out.push(
    '<invoiceHeader>',
    el('series', doc.series),
    el('aa', doc.aa),
    el('issueDate', doc.issueDate),
    el('invoiceType', doc.invoiceType),
    el('currency', 'EUR'),
    doc.correlatedMark ? el('correlatedInvoices', doc.correlatedMark) : '',
    '</invoiceHeader>',
  );
  out.push(
    `<paymentMethods><paymentMethodDetails>${el('type', doc.paymentMethod)}${el('amount', moneyString(doc.payable))}</paymentMethodDetails></paymentMethods>`,
  );
  const summaryClassifications = new Map<
    string,
    { category: string; type: string | null; amount: Decimal }
  >();
  doc.lines.forEach((line, index) => {
    const vatCategory = vatCategoryOf(mappings, line.vatPercent);
    const classification = classificationOf(mappings, doc.invoiceType, line);
    out.push('<invoiceDetails>', el('lineNumber', index + 1), el('netValue', moneyString(line.net)));
    if (vatCategory !== null) out.push(el('vatCategory', vatCategory));
    out.push(el('vatAmount', moneyString(line.vat)));
    if (vatCategory === 7 || vatCategory === 8) out.push(el('vatExemptionCategory', mappings.exemptionCause));
    if (classification) {
      out.push(
        '<incomeClassification>',
        classification.type ? el('icls:classificationType', classification.type) : '',
        el('icls:classificationCategory', classification.category),
        el('icls:amount', moneyString(line.net)),
        '</incomeClassification>',
      );
      const key = `${classification.category}|${classification.type ?? ''}`;
      const total = summaryClassifications.get(key);
      if (total) total.amount = total.amount.plus(line.net);
      else summaryClassifications.set(key, { ...classification, amount: new Decimal(line.net) });
    }
    out.push('</invoiceDetails>');
  });
  const byType = { 1: new Decimal(0), 2: new Decimal(0), 3: new Decimal(0), 4: new Decimal(0) };
  if (doc.taxes.length > 0) {
    out.push('<taxesTotals>');
    for (const tax of doc.taxes) {
      const type = TAX_TYPE[tax.kind] ?? 3;
      const category = taxCategoryOf(mappings, tax);
      byType[type] = byType[type].plus(tax.amount);
      out.push(
        '<taxes>',
        el('taxType', type),
        category === null ? '' : el('taxCategory', category),
        el('taxAmount', moneyString(tax.amount)),
        '</taxes>',
      );
    }
    out.push('</taxesTotals>');
  }
  const net = doc.lines.reduce((acc, line) => acc.plus(line.net), new Decimal(0));
  const vat = doc.lines.reduce((acc, line) => acc.plus(line.vat), new Decimal(0));
  // AADE's gross: net + VAT − withheld + fees + stamp duty + other taxes (− deductions, none here).
  const gross = net.plus(vat).minus(byType[1]).plus(byType[2]).plus(byType[4]).plus(byType[3]);
  out.push(
    '<invoiceSummary>',
    el('totalNetValue', moneyString(net)),
    el('totalVatAmount', moneyString(vat)),
    el('totalWithheldAmount', moneyString(byType[1])),
    el('totalFeesAmount', moneyString(byType[2])),
    el('totalStampDutyAmount', moneyString(byType[4])),
    el('totalOtherTaxesAmount', moneyString(byType[3])),
    el('totalDeductionsAmount', '0.00'),
    el('totalGrossValue', moneyString(gross)),
  );
  for (const c of summaryClassifications.values())
    out.push(
      '<incomeClassification>',
      c.type ? el('icls:classificationType', c.type) : '',
      el('icls:classificationCategory', c.category),
      el('icls:amount', moneyString(c.amount)),
      '</incomeClassification>',
    );
  out.push('</invoiceSummary>', '</invoice>');
  return out.join('');
}
