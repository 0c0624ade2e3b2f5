import el from '@protocol/contracts/i18n/payments/el.json';
import en from '@protocol/contracts/i18n/payments/en.json';
import { registerCatalogs } from '../../../i18n/index.ts';
import paymentsEl from './el.json';
import paymentsEn from './en.json';

// Payments' texts shared with the server (entries, methods, errors), then the screens' own.
registerCatalogs({ el, en });
registerCatalogs({ el: paymentsEl, en: paymentsEn });
