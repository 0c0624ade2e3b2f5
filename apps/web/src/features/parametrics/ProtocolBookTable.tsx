import {
  bookTypes,
  type ProtocolBook,
  type ProtocolBookRow,
  protocolBookRowSchema,
  protocolBookSchema,
  utilityYear,
} from '@protocol/contracts';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  type CellErrors,
  type DraftRow,
  RowTable,
  type RowTableColumn,
  type TypedRow,
} from '../../components/RowTable/index.ts';
import type { ApiRequestError } from '../../lib/api.ts';
import { useCan } from '../../lib/permissions.ts';

const PATH = '/api/parametrics/book';
const YEAR_MIN = 1900;
const YEAR_MAX = 2999;
const listSchema = z.array(protocolBookSchema);

function fromServer(book: ProtocolBook): DraftRow {
  return {
    id: book.id,
    descr: book.descr,
    year: book.year,
    booktype: book.booktype.id,
    isActive: book.isActive,
  };
}

function toPayload(row: TypedRow): ProtocolBookRow {
  return {
    id: row.id,
    descr: String(row.descr ?? '').trim(),
    year: Number(row.year),
    booktype: { id: Number(row.booktype) as 1 | 2 },
    isActive: Boolean(row.isActive),
  };
}

/** Marks the cells a uniqueness error of the server is about (its rows cannot be told apart otherwise). */
function serverErrorCells(error: ApiRequestError, rows: DraftRow[]): CellErrors | undefined {
  const marked: CellErrors = {};
  const mark = (groups: Map<string, DraftRow[]>, columns: string[], message: string) => {
    for (const group of groups.values()) {
      if (group.length < 2) continue;
      for (const row of group) {
        marked[row.id] = Object.fromEntries(columns.map((column) => [column, message]));
      }
    }
  };
  const groupBy = (keyOf: (row: DraftRow) => string) => {
    const groups = new Map<string, DraftRow[]>();
    for (const row of rows) groups.set(keyOf(row), [...(groups.get(keyOf(row)) ?? []), row]);
    return groups;
  };
  if (error.key === 'error.book_types_unique_per_year') {
    mark(
      groupBy((row) => `${String(row.year).trim()}:${String(row.booktype)}`),
      ['year', 'booktype'],
      'parametrics.protocolBook.duplicateYearType',
    );
  } else if (error.key === 'error.names_not_unique') {
    mark(
      groupBy((row) =>
        String(row.descr ?? '')
          .trim()
          .toLocaleLowerCase('el'),
      ),
      ['descr'],
      'parametrics.duplicateName',
    );
  } else return undefined;
  return Object.keys(marked).length > 0 ? marked : undefined;
}

/** /parametrics/protocolBook: the protocol books, one per book type and year. */
export default function ProtocolBookTable() {
  const { t } = useTranslation();
  const columns = useMemo<RowTableColumn[]>(
    () => [
      {
        key: 'descr',
        label: t('parametrics.protocolBook.descr'),
        type: 'text',
        required: true,
        maxLength: 200,
        placeholder: t('parametrics.protocolBook.descrPlaceholder'),
      },
      {
        key: 'year',
        label: t('parametrics.protocolBook.year'),
        type: 'number',
        required: true,
        min: YEAR_MIN,
        max: YEAR_MAX,
        width: 170,
        hint: t('parametrics.protocolBook.yearHint', { min: YEAR_MIN, max: YEAR_MAX }),
      },
      {
        key: 'booktype',
        label: t('parametrics.protocolBook.booktype'),
        type: 'select',
        required: true,
        width: 210,
        options: [
          { value: bookTypes.incoming, label: t('parametrics.protocolBook.booktype_1') },
          { value: bookTypes.outgoing, label: t('parametrics.protocolBook.booktype_2') },
        ],
      },
      {
        key: 'isActive',
        label: t('parametrics.protocolBook.isActive'),
        type: 'boolean',
        width: 100,
      },
    ],
    [t],
  );
  const parse = useCallback((data: unknown) => listSchema.parse(data), []);
  const can = useCan();
  const newRow = useCallback(() => ({ descr: '', year: utilityYear(), booktype: null, isActive: true }), []);

  return (
    <RowTable<ProtocolBook>
      path={PATH}
      title={t('parametrics.protocolBook.tableTitle')}
      columns={columns}
      fromServer={fromServer}
      toPayload={toPayload}
      parse={parse}
      rowSchema={protocolBookRowSchema}
      newRow={newRow}
      descriptionColumn="descr"
      serverErrorCells={serverErrorCells}
      readOnly={can('settings:write') ? undefined : t('rowTable.readOnly')}
    />
  );
}
