import el from '@protocol/contracts/i18n/protocol/el.json';
import en from '@protocol/contracts/i18n/protocol/en.json';
import { registerCatalogs } from '../../../i18n/index.ts';
import '../../../i18n/lists.ts';
import casesEl from './el.json';
import casesEn from './en.json';

// The protocol's texts shared with the server (list labels, errors), then the screens' own.
registerCatalogs({ el, en });
registerCatalogs({ el: casesEl, en: casesEn });
