import protocolEl from '@protocol/contracts/i18n/protocol/el.json';
import protocolEn from '@protocol/contracts/i18n/protocol/en.json';
import { registerCatalogs } from '../../../i18n/index.ts';
import '../../../i18n/lists.ts';
import el from './el.json';
import en from './en.json';

// The texts shared with the server (list labels, protocol errors), then the screens' own texts.
registerCatalogs({ el: protocolEl, en: protocolEn });
registerCatalogs({ el, en });
