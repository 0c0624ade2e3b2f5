// What other modules (billing) may use of the readouts (see README "Adding a module").
//
// - consumptionFor(db, companyId, { year, period }, { routeIds?, consumerIds? }): one row per
//   consumer with a current reading in the period: previous/current reading and date, the
//   consumption (rollover, reverse meters and swaps applied; after an estimate it is measured
//   from the estimated reading and may be negative), `basis`, `estimated`, `correctionOf` (the
//   earlier estimate it settles), `unableReason` and `periodState` (bill finalized periods, 9).
// - holdRoutePeriod(db, companyId, { routeId, year, period }, holder, seconds?): takes a route's
//   period for a billing run (false when someone else holds it); while held, entry and imports
//   answer 409 `readouts.busy` ('Readouts being processed, try later'). The lease ends by itself
//   after `seconds` (600 by default), so a crashed run locks nothing forever;
//   releaseRoutePeriod(db, companyId, key, holder) lets go at once.
// - withoutEstimate(db, companyId, { year, period }, { routeIds }): the consumers the period's close
//   left without a reading because there was no history to estimate from (flag `no_estimate`, in
//   the review list until a correction reads them); billing lists them among those without a reading.

export { consumptionFor, type PeriodConsumption, withoutEstimate } from './consumption.ts';
export { holdRoutePeriod, holdRoutePeriodIn, READOUTS_BUSY, releaseRoutePeriod } from './readouts.service.ts';
