import { MYDATA_DEFAULT_URLS, type MydataMappings, type SaveMydataSettings } from '@protocol/contracts';

/**
 * A ΔΕΥΑ's starting point, each row visible and changeable at /settings/mydata: the national VAT
 * rates, income classified as sales of goods (category1_1) or services (category1_3) with E3 codes
 * 561_001 (wholesale/invoices) and 561_003 (retail), withholding on fees at 20% (WithheldType 3),
 * the stamp duty at 3.6% (StampDutyType 3) and 0% lines exempt under articles 2–3 of the VAT code (1).
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
};

export const DEFAULT_SETTINGS: SaveMydataSettings = {
  environment: 'test',
  testUrl: MYDATA_DEFAULT_URLS.test,
  productionUrl: MYDATA_DEFAULT_URLS.production,
  branch: 0,
  mappings: DEFAULT_MAPPINGS,
};
