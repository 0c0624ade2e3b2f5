import { documentsCatalog } from '@protocol/contracts';
import { describe, expect, it } from 'vitest';
import { defaultQuery, queryFromUrl } from '../../../components/DataTable/state.ts';
import { chargedToMeList, registrationsList } from './links.ts';

const readBack = (link: string) =>
  queryFromUrl(documentsCatalog, new URLSearchParams(link.split('?')[1]), defaultQuery(documentsCatalog));

describe('dashboard links', () => {
  it('open the documents list filtered as the card counts', () => {
    expect(chargedToMeList(7)).toMatch(/^\/document\?/);
    expect(readBack(chargedToMeList(7)).filters).toEqual({ chargedUserId: [{ op: 'eq', value: '7' }] });
    const month = readBack(registrationsList('Γενικό & Λοιπά', '2026-11-01', true));
    expect(month.filters).toEqual({
      protocolBook: [{ op: 'eq', value: 'Γενικό & Λοιπά' }],
      protocolDate: [{ op: 'gte', value: '2026-11-01' }],
    });
    expect(month.sort).toEqual([{ id: 'protocolDate', desc: true }]);
    expect(readBack(registrationsList(null, '2026-11-25')).filters).toEqual({
      protocolDate: [{ op: 'eq', value: '2026-11-25' }],
    });
  });
});
