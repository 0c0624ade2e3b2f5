import {
  type DocumentTotals,
  documentTotals,
  editableDecimal,
  type FinanceDocument,
  parseDecimal,
  type SaveFinanceDocument,
  type TaxKind,
} from '@protocol/contracts';
import { wireDate } from '../../components/form/dates.ts';
import type { PickedTrader } from '../../components/TraderPicker/TraderPicker.tsx';
import { formatDate } from '../../lib/dates.ts';

/** A line as typed: amounts are text (Greek "12,50" or "12.50"), read with the contracts' parser. */
export interface LineDraft {
  key: number;
  source: 'service' | 'item';
  serviceId: number | null;
  itemId: number | null;
  descr: string;
  quantity: string;
  price: string;
  discount: string;
  vatPercent: string;
}

export interface TaxDraft {
  key: number;
  kind: TaxKind;
  /** A percentage of the net; empty for a fixed amount. */
  percent: string;
  amount: string;
}

export interface DocumentDraft {
  seriesId: number | null;
  /** As shown and typed: DD/MM/YYYY. */
  date: string;
  trader: PickedTrader | null;
  paymentMethod: number;
  status: number;
  notes: string;
  lines: LineDraft[];
  taxes: TaxDraft[];
}

/** A stored decimal as a person types it (the money engine's editableDecimal). */
export const typed = editableDecimal;

let nextKey = 1;
export const newKey = () => nextKey++;

export const emptyLine = (): LineDraft => ({
  key: newKey(),
  source: 'service',
  serviceId: null,
  itemId: null,
  descr: '',
  quantity: '1',
  price: '0',
  discount: '0',
  vatPercent: '24',
});

export function draftOf(doc: FinanceDocument, language: 'el' | 'en'): DocumentDraft {
  return {
    seriesId: doc.seriesId,
    date: formatDate(doc.date),
    trader: doc.traderId
      ? { id: doc.traderId, fullname: doc.traderName, vatnumber: doc.traderVatnumber }
      : null,
    paymentMethod: doc.paymentMethod,
    status: doc.status,
    notes: doc.notes ?? '',
    lines: doc.lines.map((l) => ({
      key: newKey(),
      source: l.itemId === null ? 'service' : 'item',
      serviceId: l.serviceId,
      itemId: l.itemId,
      descr: l.descr,
      quantity: typed(l.quantity, language, 0),
      price: typed(l.price, language),
      discount: typed(l.discount, language, 0),
      vatPercent: typed(l.vatPercent, language, 0),
    })),
    taxes: doc.taxes.map((t) => ({
      key: newKey(),
      kind: t.kind as TaxKind,
      percent: t.percent === null ? '' : typed(t.percent, language, 0),
      amount: t.percent === null ? typed(t.amount, language) : '',
    })),
  };
}

/** Text as the wire's decimal string ("12,5" → "12.5"); as typed when it is not a number (the server names it). */
const wire = (text: string) => parseDecimal(text)?.toString() ?? text;
const number = (text: string) => parseDecimal(text) ?? 0;

export function payloadOf(draft: DocumentDraft): SaveFinanceDocument {
  return {
    seriesId: draft.seriesId ?? 0,
    date: wireDate(draft.date) ?? '',
    traderId: draft.trader?.id ?? null,
    paymentMethod: draft.paymentMethod as SaveFinanceDocument['paymentMethod'],
    status: draft.status as SaveFinanceDocument['status'],
    notes: draft.notes || null,
    lines: draft.lines.map((l) => ({
      serviceId: l.source === 'service' ? l.serviceId : null,
      itemId: l.source === 'item' ? l.itemId : null,
      warehouseId: null,
      descr: l.descr || null,
      quantity: wire(l.quantity),
      price: wire(l.price),
      discount: wire(l.discount || '0'),
      vatPercent: wire(l.vatPercent),
    })),
    taxes: draft.taxes.map((t) => ({
      kind: t.kind,
      percent: t.percent.trim() ? wire(t.percent) : null,
      amount: t.percent.trim() ? null : wire(t.amount || '0'),
    })),
  };
}

/** The totals as the server will compute them (the same money rules), while the user types. */
export function liveTotals(draft: DocumentDraft): DocumentTotals {
  return documentTotals(
    draft.lines.map((l) => ({
      quantity: number(l.quantity),
      price: number(l.price),
      discount: number(l.discount || '0'),
      vatPercent: number(l.vatPercent),
    })),
    draft.taxes.map((t) => ({
      kind: t.kind,
      percent: t.percent.trim() ? number(t.percent) : null,
      amount: number(t.amount || '0'),
    })),
  );
}
