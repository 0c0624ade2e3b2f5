import el from '@protocol/contracts/i18n/billing/el.json';
import en from '@protocol/contracts/i18n/billing/en.json';
import { registerCatalogs } from '../../../i18n/index.ts';
import '../../../i18n/lists.ts';
import billingEl from './el.json';
import billingEn from './en.json';

// Billing's texts shared with the server (charges, list labels, errors), then the screens' own.
registerCatalogs({ el, en });
registerCatalogs({ el: billingEl, en: billingEn });
