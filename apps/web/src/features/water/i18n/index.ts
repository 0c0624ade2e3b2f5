import el from '@protocol/contracts/i18n/water/el.json';
import en from '@protocol/contracts/i18n/water/en.json';
import { registerCatalogs } from '../../../i18n/index.ts';
import '../../../i18n/lists.ts';
import waterEl from './el.json';
import waterEn from './en.json';

// The water service's texts shared with the server (list labels, errors), then the screens' own.
registerCatalogs({ el, en });
registerCatalogs({ el: waterEl, en: waterEn });
