import el from '@protocol/contracts/i18n/settlements/el.json';
import en from '@protocol/contracts/i18n/settlements/en.json';
import { registerCatalogs } from '../../../i18n/index.ts';
import settlementsEl from './el.json';
import settlementsEn from './en.json';

// The settlements' texts shared with the server (errors, statuses, list labels), then the screens' own.
registerCatalogs({ el, en });
registerCatalogs({ el: settlementsEl, en: settlementsEn });
