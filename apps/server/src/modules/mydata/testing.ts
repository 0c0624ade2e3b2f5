// What the bench measures of myDATA, one import for it (package export `./testing/mydata`).
export { FAKE_AADE_KEY, FAKE_AADE_USER, startFakeAade } from './fake-aade/fake-aade.ts';
export { DEFAULT_SETTINGS } from './mydata.defaults.ts';
export { transmitDocuments, transport } from './mydata.service.ts';
export { financeSource } from './mydata.sources.ts';
export { buildInvoicesDoc } from './mydata.xml.ts';
export { validateXml } from './mydata.xsd.ts';
