// What other modules (billing) may use of the readouts (see README "Adding a module").

export { consumptionFor, type PeriodConsumption } from './consumption.ts';
export { holdRoutePeriod, READOUTS_BUSY, releaseRoutePeriod } from './readouts.service.ts';
