import el from '@protocol/contracts/i18n/mydata/el.json';
import en from '@protocol/contracts/i18n/mydata/en.json';
import { registerCatalogs } from '../../../i18n/index.ts';
import '../../../i18n/lists.ts';
import mydataEl from './el.json';
import mydataEn from './en.json';

// myDATA's texts shared with the server (list labels, states, errors, PDF), then the screens' own.
registerCatalogs({ el, en });
registerCatalogs({ el: mydataEl, en: mydataEn });
