import { NOTIFICATION_BADGE_MAX } from '@protocol/contracts';
import { describe, expect, it } from 'vitest';
import { badgeText } from './notifications.ts';

describe('the bell badge (spec §9)', () => {
  it("shows the count up to 9 and '9+' above", () => {
    expect(badgeText(1, NOTIFICATION_BADGE_MAX)).toBe('1');
    expect(badgeText(9, NOTIFICATION_BADGE_MAX)).toBe('9');
    expect(badgeText(10, NOTIFICATION_BADGE_MAX)).toBe('9+');
    expect(badgeText(250, NOTIFICATION_BADGE_MAX)).toBe('9+');
  });
});
