import { errorKeys } from '@protocol/contracts';
import { describe, expect, it } from 'vitest';
import { translate } from './i18n.ts';

describe('the server’s texts', () => {
  it('issue 29 item 15: a refused status change names the statuses in words, not their catalog keys', () => {
    const params = { from: 'onlineForms.submissionStatus.0', to: 'onlineForms.submissionStatus.3' };
    expect(translate('el', errorKeys.statusNotAllowed, params)).toBe(
      'Η αλλαγή κατάστασης από «Ανοιχτή» σε «Επιλυμένη» δεν επιτρέπεται',
    );
    expect(translate('en', errorKeys.statusNotAllowed, params)).toBe(
      'Changing the status from "Open" to "Resolved" is not allowed',
    );
  });
});
