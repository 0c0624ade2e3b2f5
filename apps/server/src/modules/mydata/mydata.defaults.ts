import {
  MYDATA_DEFAULT_URLS,
  type MydataMappings,
  paymentMethods,
  type SaveMydataSettings,
  vatCharges,
} from '@protocol/contracts';

/**
 * A ΔΕΥΑ's starting point, each row visible and changeable at /settings/mydata: the national VAT
 * rates, income classified as sales of goods (category1_1) or services (category1_3) with E3 codes
 * 561_001 (wholesale/invoices) and 561_003 (retail), withholding on fees at 20% (WithheldType 3),
 * the stamp duty at 3.6% (StampDutyType 3) and 0% lines exempt under articles 2–3 of the VAT code (1).
 * Finance's payment methods are myDATA's own codes (1–7), so each maps to itself; a water bill is
 * paid after it is issued (5, on credit). A water bill's charges are services (category1_3): retail
 * (E3_561_003) on the receipt, wholesale (E3_561_001) on the invoice to a consumer with an ΑΦΜ.
 */
export const DEFAULT_MAPPINGS: MydataMappings = {
  vatCategories: [
    { percent: '24', category: 1 },
    { percent: '13', category: 2 },
    { percent: '6', category: 3 },
    { percent: '17', category: 4 },
    { percent: '9', category: 5 },
    { percent: '4', category: 6 },
    { percent: '0', category: 7 },
    { percent: '3', category: 9 },
  ],
  exemptionCause: 1,
  classifications: [
    { invoiceType: '1.1', category: 'category1_1', type: 'E3_561_001' },
    { invoiceType: '2.1', category: 'category1_3', type: 'E3_561_001' },
    { invoiceType: '5.1', category: 'category1_3', type: 'E3_561_001' },
    { invoiceType: '5.2', category: 'category1_3', type: 'E3_561_001' },
    { invoiceType: '8.2', category: 'category1_95', type: null },
    { invoiceType: '11.1', category: 'category1_1', type: 'E3_561_003' },
    { invoiceType: '11.2', category: 'category1_3', type: 'E3_561_003' },
    { invoiceType: '11.4', category: 'category1_3', type: 'E3_561_003' },
  ],
  serviceClassifications: [],
  accountClassifications: [],
  businessBillType: '2.1',
  taxCodes: [
    { kind: 3, percent: '20', category: 3 },
    { kind: 3, percent: null, category: 3 },
    { kind: 2, percent: '3.6', category: 3 },
    { kind: 2, percent: null, category: 4 },
    { kind: 1, percent: null, category: 1 },
    { kind: 4, percent: null, category: 1 },
  ],
  paymentMethods: paymentMethods.map((method) => ({ method, type: method })),
  billPaymentMethod: 5,
  chargeClassifications: (['11.2', '2.1'] as const).flatMap((invoiceType) =>
    vatCharges.map((charge) => ({
      charge,
      invoiceType,
      category: 'category1_3',
      type: invoiceType === '2.1' ? 'E3_561_001' : 'E3_561_003',
    })),
  ),
};

/** Settings saved before a mapping existed show (and use) its default until saved again. */
export const withDefaultMappings = (mappings: MydataMappings): MydataMappings => ({
  ...mappings,
  paymentMethods: mappings.paymentMethods ?? DEFAULT_MAPPINGS.paymentMethods,
  billPaymentMethod: mappings.billPaymentMethod ?? DEFAULT_MAPPINGS.billPaymentMethod,
  chargeClassifications: mappings.chargeClassifications ?? DEFAULT_MAPPINGS.chargeClassifications,
});

export const DEFAULT_SETTINGS: SaveMydataSettings = {
  environment: 'test',
  testUrl: MYDATA_DEFAULT_URLS.test,
  productionUrl: MYDATA_DEFAULT_URLS.production,
  branch: 0,
  mappings: DEFAULT_MAPPINGS,
};
