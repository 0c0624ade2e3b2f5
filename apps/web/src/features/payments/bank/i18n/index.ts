import el from '@protocol/contracts/i18n/bank/el.json';
import en from '@protocol/contracts/i18n/bank/en.json';
import { registerCatalogs } from '../../../../i18n/index.ts';
import bankEl from './el.json';
import bankEn from './en.json';

// The bank files' texts shared with the server (statuses, reasons, errors), then the screens' own.
registerCatalogs({ el, en });
registerCatalogs({ el: bankEl, en: bankEn });
