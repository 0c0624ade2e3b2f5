import { describe, expect, it } from 'vitest';
import { DEFAULT_MAPPINGS } from './mydata.defaults.ts';
import { parseResponseDoc, responseDocXml } from './mydata.response.ts';
import { chargeLines } from './mydata.sources.ts';
import { buildInvoicesDoc, invoiceUid, type MydataSourceDocument } from './mydata.xml.ts';
import { validateXml } from './mydata.xsd.ts';

/**
 * The XML of representative documents against AADE's official XSD (libxml2, the engine of
 * xmllint), and the UID as AADE defines it.
 */

const base: MydataSourceDocument = {
  documentId: 1,
  issuer: { vatNumber: '090000045', branch: 0 },
  counterpart: { vatNumber: '094014201', country: 'GR', name: null },
  series: 'ΤΔΑ',
  aa: '17',
  issueDate: '2026-11-25',
  invoiceType: '1.1',
  correlatedMark: null,
  paymentMethod: 3,
  lines: [{ serviceCode: null, net: '100.00', vatPercent: '24.00', vat: '24.00' }],
  taxes: [],
  payable: '124.00',
};

const documents: Record<string, MydataSourceDocument> = {
  'sales invoice with withholding': {
    ...base,
    taxes: [{ kind: 3, percent: '20.0000', amount: '20.00' }],
    payable: '104.00',
  },
  'services invoice': {
    ...base,
    series: 'ΤΠΥ',
    invoiceType: '2.1',
    paymentMethod: 1,
    lines: [{ serviceCode: 'ΥΠ01', net: '150.00', vatPercent: '24.00', vat: '36.00' }],
    payable: '186.00',
  },
  'credit note referencing its original': {
    ...base,
    series: 'ΠΤΕ',
    aa: '3',
    invoiceType: '5.1',
    correlatedMark: '400001000000123',
  },
  'retail receipt': { ...base, series: 'ΑΛΠ', invoiceType: '11.1', counterpart: null },
  'water bill with two VAT rates': {
    ...base,
    series: 'ΛΝ',
    invoiceType: '11.2',
    counterpart: null,
    lines: [
      { serviceCode: null, net: '18.40', vatPercent: '13.00', vat: '2.39' },
      { serviceCode: null, net: '6.00', vatPercent: '24.00', vat: '1.44' },
    ],
    taxes: [{ kind: 4, percent: null, amount: '0.50' }],
    payable: '28.73',
  },
  'zero-VAT line with an exemption cause': {
    ...base,
    series: 'ΤΠΥ',
    invoiceType: '2.1',
    lines: [
      { serviceCode: null, net: '40.00', vatPercent: '24.00', vat: '9.60' },
      { serviceCode: null, net: '12.00', vatPercent: '0.00', vat: '0.00' },
    ],
    taxes: [{ kind: 2, percent: '3.6000', amount: '1.87' }],
    payable: '63.47',
  },
};

describe('InvoicesDoc against the official XSD', () => {
  for (const [name, doc] of Object.entries(documents))
    it(`validates: ${name}`, () => {
      const xml = buildInvoicesDoc([doc], DEFAULT_MAPPINGS);
      expect(validateXml(xml)).toEqual([]);
    });

  it('classifies income by service, then by account (the longest code), then by invoice type', () => {
    const mappings = {
      ...DEFAULT_MAPPINGS,
      serviceClassifications: [{ serviceCode: 'ΥΠ01', category: 'category1_2', type: 'E3_561_002' }],
      accountClassifications: [
        { accountCode: '73', category: 'category1_3', type: 'E3_561_001' },
        { accountCode: '73.00.01', category: 'category1_5', type: 'E3_561_007' },
      ],
    };
    const xml = buildInvoicesDoc(
      [
        {
          ...base,
          lines: [
            { serviceCode: 'ΥΠ01', accountCode: '73.00.01', net: '10.00', vatPercent: '24', vat: '2.40' },
            { serviceCode: 'ΥΠ02', accountCode: '73.00.01', net: '20.00', vatPercent: '24', vat: '4.80' },
            { serviceCode: 'ΥΠ03', accountCode: '73.00.02', net: '30.00', vatPercent: '24', vat: '7.20' },
            { serviceCode: 'ΥΠ04', accountCode: '74.00', net: '40.00', vatPercent: '24', vat: '9.60' },
          ],
          payable: '124.00',
        },
      ],
      mappings,
    );
    expect(validateXml(xml)).toEqual([]);
    const categories = [...xml.matchAll(/<invoiceDetails>.*?<icls:classificationCategory>(\w+)</g)].map(
      (m) => m[1],
    );
    expect(categories).toEqual(['category1_2', 'category1_5', 'category1_3', 'category1_1']);
  });

  it('names a foreign counterpart with its address; a Greek one by its ΑΦΜ alone', () => {
    const address = { street: 'Hauptstraße 5', postalCode: '10115', city: 'Berlin' };
    const foreign = buildInvoicesDoc(
      [{ ...base, counterpart: { vatNumber: '123456789', country: 'DE', name: 'Wasser GmbH', address } }],
      DEFAULT_MAPPINGS,
    );
    expect(validateXml(foreign)).toEqual([]);
    expect(foreign).toContain(
      '<name>Wasser GmbH</name><address><street>Hauptstraße 5</street><postalCode>10115</postalCode><city>Berlin</city></address>',
    );
    const greek = buildInvoicesDoc(
      [{ ...base, counterpart: { vatNumber: '094014201', country: 'GR', name: 'Α ΑΕ', address } }],
      DEFAULT_MAPPINGS,
    );
    expect(greek).not.toContain('<address>');
    const noCity = buildInvoicesDoc(
      [
        {
          ...base,
          counterpart: { vatNumber: '1', country: 'DE', name: 'X', address: { ...address, city: null } },
        },
      ],
      DEFAULT_MAPPINGS,
    );
    expect(validateXml(noCity)[0]).toMatchObject({ rule: 'missing', field: 'city' });
  });

  it('carries what each case needs', () => {
    const credit = buildInvoicesDoc(
      [documents['credit note referencing its original'] as MydataSourceDocument],
      DEFAULT_MAPPINGS,
    );
    expect(credit).toContain('<correlatedInvoices>400001000000123</correlatedInvoices>');
    const zero = buildInvoicesDoc(
      [documents['zero-VAT line with an exemption cause'] as MydataSourceDocument],
      DEFAULT_MAPPINGS,
    );
    expect(zero).toContain(
      '<vatCategory>7</vatCategory><vatAmount>0.00</vatAmount><vatExemptionCategory>1</vatExemptionCategory>',
    );
    const withheld = buildInvoicesDoc(
      [documents['sales invoice with withholding'] as MydataSourceDocument],
      DEFAULT_MAPPINGS,
    );
    expect(withheld).toContain(
      '<taxes><taxType>1</taxType><taxCategory>3</taxCategory><taxAmount>20.00</taxAmount></taxes>',
    );
    // 100 + 24 − 20 withheld: AADE's gross equals what the customer pays.
    expect(withheld).toContain('<totalGrossValue>104.00</totalGrossValue>');
    const water = buildInvoicesDoc(
      [documents['water bill with two VAT rates'] as MydataSourceDocument],
      DEFAULT_MAPPINGS,
    );
    expect(water).toContain('<vatCategory>2</vatCategory>');
    expect(water).not.toContain('<counterpart>');
    expect(water).toContain('<totalGrossValue>28.73</totalGrossValue>');
  });

  it('several documents in one InvoicesDoc validate together', () => {
    expect(validateXml(buildInvoicesDoc(Object.values(documents), DEFAULT_MAPPINGS))).toEqual([]);
  });

  it('does not validate a broken document, and names the rule it broke', () => {
    const missing = buildInvoicesDoc(
      [
        {
          ...base,
          lines: [{ ...base.lines[0], vatPercent: '7.00' } as MydataSourceDocument['lines'][number]],
        },
      ],
      DEFAULT_MAPPINGS,
    );
    const problems = validateXml(missing);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.element).toBe('vatAmount');
    expect(problems[0]?.message).toContain('vatCategory');
    // Sorted into a rule naming the field, for a text in the user's language.
    expect(problems[0]).toMatchObject({ rule: 'missing', field: 'vatCategory' });
    const badType = validateXml(buildInvoicesDoc([{ ...base, invoiceType: '99.9' }], DEFAULT_MAPPINGS));
    expect(badType[0]?.element).toBe('invoiceType');
    expect(badType[0]).toMatchObject({ rule: 'notInList', field: 'invoiceType', value: '99.9' });
    const long = validateXml(buildInvoicesDoc([{ ...base, series: 'Σ'.repeat(60) }], DEFAULT_MAPPINGS));
    expect(long[0]).toMatchObject({ rule: 'tooLong', field: 'series' });
    expect(validateXml('<InvoicesDoc>')[0]?.message).toBeTruthy();
  });
});

describe('UID', () => {
  it("matches AADE's published example (999999999-2020-10-22-0-1.1-A-2)", () => {
    const uid = invoiceUid({
      issuer: { vatNumber: '999999999', branch: 0 },
      issueDate: '2020-10-22',
      invoiceType: '1.1',
      series: 'A',
      aa: '2',
    });
    // sha1sum of the published input string, in upper case.
    expect(uid).toBe('C242E229D54850E9CE6116220B23F1666188E297');
  });
});

describe('ResponseDoc', () => {
  it('round-trips success and errors and validates against response-v2.0.1.xsd', () => {
    const xml = responseDocXml([
      {
        index: 1,
        statusCode: 'Success',
        invoiceUid: 'ABC',
        invoiceMark: '400001000000001',
        cancellationMark: null,
        qrUrl: 'https://x/q',
        errors: [],
      },
      {
        index: 2,
        statusCode: 'ValidationError',
        invoiceUid: null,
        invoiceMark: null,
        cancellationMark: null,
        qrUrl: null,
        errors: [{ code: '102', message: 'Vat number not found' }],
      },
    ]);
    expect(validateXml(xml, 'response-v2.0.1.xsd')).toEqual([]);
    const [ok, bad] = parseResponseDoc(xml);
    expect(ok).toMatchObject({
      index: 1,
      statusCode: 'Success',
      invoiceMark: '400001000000001',
      qrUrl: 'https://x/q',
    });
    expect(bad?.errors).toEqual([{ code: '102', message: 'Vat number not found' }]);
  });
});

describe('water bills: a line per charge kind, each with its classification', () => {
  // A bill at two rates: water 12.35 + 6.10 (bands) − 2.47 discount on water, fixed 3.00, all at
  // 13%: net 18.98, VAT 2.47 (18.98 × 13% = 2.4674); sewerage 5.00 at 24%: VAT 1.20.
  const lines = [
    { charge: 'waterFixed', target: null, amount: '3.00', vatPercent: '13.00' },
    { charge: 'water', target: null, amount: '12.35', vatPercent: '13.00' },
    { charge: 'water', target: null, amount: '6.10', vatPercent: '13.00' },
    { charge: 'discount', target: 'water', amount: '-2.47', vatPercent: '13.00' },
    { charge: 'sewerage', target: null, amount: '5.00', vatPercent: '24.00' },
    { charge: 'previousBalance', target: null, amount: '40.00', vatPercent: '0.00' },
  ] as const;
  const vat = [
    { vatPercent: '13.00', net: '18.98', vat: '2.47' },
    { vatPercent: '24.00', net: '5.00', vat: '1.20' },
  ];

  it('nets a discount into its charge and shares the rate’s VAT so the lines add up to the bill', () => {
    // water 15.98 → VAT 2.08 (the largest takes the rest: 2.47 − 0.39); fixed 3.00 → 0.39 (half-up of 0.39).
    expect(chargeLines([...lines], vat)).toEqual([
      { serviceCode: null, charge: 'waterFixed', net: '3.00', vatPercent: '13.00', vat: '0.39' },
      { serviceCode: null, charge: 'water', net: '15.98', vatPercent: '13.00', vat: '2.08' },
      { serviceCode: null, charge: 'sewerage', net: '5.00', vatPercent: '24.00', vat: '1.20' },
    ]);
  });

  it('a discount larger than its charge nets into the largest one; no charge lines: one line per rate', () => {
    const big = [
      { charge: 'water', target: null, amount: '10.00', vatPercent: '13.00' },
      { charge: 'sewerageFixed', target: null, amount: '2.00', vatPercent: '13.00' },
      { charge: 'discount', target: 'sewerageFixed', amount: '-3.00', vatPercent: '13.00' },
    ] as const;
    expect(chargeLines([...big], [{ vatPercent: '13.00', net: '9.00', vat: '1.17' }])).toEqual([
      { serviceCode: null, charge: 'water', net: '9.00', vatPercent: '13.00', vat: '1.17' },
    ]);
    expect(chargeLines([], vat).map((l) => [l.charge, l.net, l.vat])).toEqual([
      [null, '18.98', '2.47'],
      [null, '5.00', '1.20'],
    ]);
  });

  it('classifies each charge for the type sent, validates, and sends the mapped payment method', () => {
    const mappings = {
      ...DEFAULT_MAPPINGS,
      billPaymentMethod: 8,
      chargeClassifications: [
        ...(DEFAULT_MAPPINGS.chargeClassifications ?? []).filter((r) => r.charge !== 'sewerage'),
        {
          charge: 'sewerage' as const,
          invoiceType: '11.2' as const,
          category: 'category1_5',
          type: 'E3_561_003',
        },
      ],
    };
    const bill: MydataSourceDocument = {
      ...base,
      series: 'ΛΥΔ',
      invoiceType: '11.2',
      counterpart: null,
      paymentMethod: 8,
      lines: chargeLines([...lines], vat),
      payable: '27.65',
    };
    const xml = buildInvoicesDoc([bill], mappings);
    expect(validateXml(xml)).toEqual([]);
    expect(xml).toContain(
      '<invoiceDetails><lineNumber>3</lineNumber><netValue>5.00</netValue><vatCategory>1</vatCategory><vatAmount>1.20</vatAmount><incomeClassification><icls:classificationType>E3_561_003</icls:classificationType><icls:classificationCategory>category1_5</icls:classificationCategory>',
    );
    expect(xml).toContain('<paymentMethodDetails><type>8</type><amount>27.65</amount>');
    expect(xml).toContain('<totalGrossValue>27.65</totalGrossValue>');
    // The summary adds the classifications: category1_3 18.98 (water and fixed), category1_5 5.00.
    expect(xml).toContain(
      '<icls:classificationType>E3_561_003</icls:classificationType><icls:classificationCategory>category1_3</icls:classificationCategory><icls:amount>18.98</icls:amount>',
    );
  });
});
