/** Meter kinds (spec §3 'Meter kind'). */
export const meterKinds = { analog: 1, digital: 2, amr: 3 } as const;
/** Meter direction (spec §3 'Direction'): a reverse meter counts down. */
export const meterDirections = { reverse: -1, normal: 1 } as const;

/**
 * The consumption between two readings of one meter, in whole cubic metres. A meter of `digits`
 * digits that shows less than before has rolled over (past 99…9 back to 0) when the rollover
 * path is the shorter one; otherwise a lower reading is not a consumption and answers null.
 * A reverse meter counts down, so its consumption is previous − current.
 */
export function meterConsumption(
  previous: number,
  current: number,
  digits: number | null = null,
  direction: 1 | -1 = 1,
): number | null {
  const delta = direction === 1 ? current - previous : previous - current;
  if (delta >= 0) return delta;
  if (digits === null) return null;
  const wrapped = 10 ** digits + delta;
  // A rollover is believable only when it is a small part of the dial, not a reading typed wrong.
  return wrapped >= 0 && wrapped < 10 ** digits / 2 ? wrapped : null;
}

export interface MeterSwapReadings {
  /** The old meter's reading at the previous readout. */
  oldPrevious: number;
  /** The old meter's final reading, at its removal. */
  oldFinal: number;
  /** The new meter's initial reading, at its installation. */
  newInitial: number;
  /** The new meter's reading now. */
  newCurrent: number;
  oldDigits?: number | null;
  newDigits?: number | null;
}

/**
 * Consumption across a meter swap: (old final − old previous) + (new current − new initial), each
 * part on its own meter (so each may roll over by itself); null when either part is negative.
 */
export function swapConsumption(r: MeterSwapReadings): number | null {
  const before = meterConsumption(r.oldPrevious, r.oldFinal, r.oldDigits ?? null);
  const after = meterConsumption(r.newInitial, r.newCurrent, r.newDigits ?? null);
  return before === null || after === null ? null : before + after;
}
