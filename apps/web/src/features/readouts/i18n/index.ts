import el from '@protocol/contracts/i18n/readouts/el.json';
import en from '@protocol/contracts/i18n/readouts/en.json';
import { registerCatalogs } from '../../../i18n/index.ts';
import readoutsEl from './el.json';
import readoutsEn from './en.json';

// The readouts' texts shared with the server (errors), then the screens' own.
registerCatalogs({ el, en });
registerCatalogs({ el: readoutsEl, en: readoutsEn });
